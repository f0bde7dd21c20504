import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../domain/ledger/ledger.events.js';
import { ledgerPeriodStream, ledgerStream } from '../domain/ledger/ledger.events.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { EventStore } from '../domain/ports/event-store.port.js';
import { openLmdbEventStore } from '../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../infra/system/crypto-random.js';
import { uuidIds, uuidV7 } from '../infra/system/uuid-ids.js';
import { chargeCall, deposit, readBalance, refundCall } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';
import { createCommandExecutor } from './command-executor.js';
import { walkLedgerChain } from './ledger-chain-walk.js';

/**
 * Upgrade: a data directory written before periods holds one `ledger-{userId}` stream with months of
 * history. It stays the first period of the chain: its closing opens the first new period, its charges
 * are still found (a repeat takes nothing, a refund returns them), and the chain walks clean.
 */

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function openStore(): Promise<EventStore> {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-legacy-'));
  dirs.push(dir);
  return openLmdbEventStore(dir, { fsync: false });
}

const details = { endpoint: 'POST /v2/screen', keyId: 'k1', network: 'ethereum', subject: '0xabc' };
const OCT = '2026-10-01T00:00:00.000Z';
const NOV = '2026-11-01T00:00:00.000Z';
/** A full check submitted in October and charged on delivery in November, under the old code. */
const SUBMITTED_IN_OCTOBER = uuidV7(Date.parse('2026-10-31T23:58:00.000Z'));

/** The stream exactly as today's main writes it: one stream, no period events, two months. */
const LEGACY: LedgerEvent[] = [
  { type: 'PlanChanged', data: { plan: { kind: 'ledger' }, at: '2026-10-02T09:00:00.000Z' } },
  { type: 'FundsDeposited', data: { depositId: 'initial', amountMicros: 5_000_000, at: '2026-10-02T09:00:00.000Z' } },
  { type: 'QuotaPeriodStarted', data: { periodStart: OCT, monthlyUnits: 0 } },
  {
    type: 'Charged',
    data: {
      chargeId: 'call-1',
      product: 'screen',
      units: 0,
      amountMicros: 100_000,
      periodStart: OCT,
      at: '2026-10-05T10:00:00.000Z',
      details,
    },
  },
  { type: 'QuotaPeriodStarted', data: { periodStart: NOV, monthlyUnits: 0 } },
  {
    type: 'Charged',
    data: {
      chargeId: SUBMITTED_IN_OCTOBER,
      product: 'check_address',
      units: 0,
      amountMicros: 500_000,
      periodStart: NOV,
      at: '2026-11-01T00:00:03.000Z',
      details,
    },
  },
  {
    type: 'Charged',
    data: {
      chargeId: 'call-2',
      product: 'screen',
      units: 0,
      amountMicros: 100_000,
      periodStart: NOV,
      at: '2026-11-20T10:00:00.000Z',
      details,
    },
  },
];
const LEGACY_BALANCE = 5_000_000 - 700_000;

async function writeLegacy(store: EventStore, userId: string) {
  await store.append(
    ledgerStream(userId),
    LEGACY.map((event, index) => ({
      id: uuidIds.eventId(`legacy:${userId}`, index),
      type: event.type,
      data: event.data,
      metadata: { correlationId: 'legacy', occurredAt: '2026-11-20T10:00:00.000Z', schemaVersion: 1 },
    })),
    { expected: 'no_stream' },
  );
}

function processAt(store: EventStore, at: string): CommandDeps {
  let t = Date.parse(at);
  const clock: Clock = { now: () => new Date(t++) };
  return { executor: createCommandExecutor({ store, clock, ids: uuidIds }), clock, ids: uuidIds, random: cryptoRandom, bootId: 'boot' };
}

describe('ledger periods: a ledger written in the old shape', () => {
  it('keeps its month going in the legacy stream, then rolls over from it', async () => {
    const store = await openStore();
    try {
      const userId = 'legacy-user';
      await writeLegacy(store, userId);

      const lateNovember = processAt(store, '2026-11-28T12:00:00.000Z');
      expect((await readBalance(lateNovember, userId)).state.balanceMicros).toBe(LEGACY_BALANCE);
      await chargeCall(lateNovember, { userId, chargeId: 'call-3', product: 'screen', details });
      expect(await store.streamRevision(ledgerPeriodStream(userId, '2026-12-01T00:00:00.000Z'))).toBe(-1n);

      const december = processAt(store, '2026-12-01T00:00:05.000Z');
      // every kind of legacy charge is found again from December: repeats take nothing
      for (const chargeId of ['call-1', SUBMITTED_IN_OCTOBER, 'call-2', 'call-3']) {
        expect((await chargeCall(december, { userId, chargeId, product: 'screen', details })).duplicate, chargeId).toBe(true);
      }
      const after = LEGACY_BALANCE - 100_000;
      expect((await readBalance(december, userId)).state.balanceMicros).toBe(after);
      // a refund in December of a charge taken in the legacy stream returns it, once
      await refundCall(december, { userId, chargeId: SUBMITTED_IN_OCTOBER, reason: 'backend_unavailable' });
      await refundCall(december, { userId, chargeId: SUBMITTED_IN_OCTOBER, reason: 'again' });
      await expect(chargeCall(december, { userId, chargeId: SUBMITTED_IN_OCTOBER, product: 'screen', details })).rejects.toMatchObject({
        code: 'backend_unavailable',
      });
      await deposit(december, { userId, depositId: 'initial', amountMicros: 9_000_000 });
      expect((await readBalance(december, userId)).state.balanceMicros).toBe(after + 500_000);

      const periods = [];
      for await (const period of walkLedgerChain(store, userId)) periods.push(period);
      expect(periods.map((p) => p.stream)).toEqual([ledgerStream(userId), ledgerPeriodStream(userId, '2026-12-01T00:00:00.000Z')]);
      expect(periods.flatMap((p) => p.breaks)).toEqual([]);
      // the legacy events are untouched, and closed with what they add up to
      expect(periods[0]!.events.slice(0, LEGACY.length).map((e) => e.type)).toEqual(LEGACY.map((e) => e.type));
      expect(periods[0]!.state.closed?.closing.balanceMicros).toBe(after);
      expect(periods[1]!.state.opened?.opening.balanceMicros).toBe(after);
      expect(periods[1]!.events.map((e) => e.type)).toEqual(['PeriodOpened', 'Refunded']);

      // a process that never saw the legacy stream (cold cache) reads the same
      expect((await readBalance(processAt(store, '2026-12-02T00:00:00.000Z'), userId)).state.balanceMicros).toBe(after + 500_000);
    } finally {
      await store.close();
    }
  });

  it('reports a break when a period does not open with the previous closing', async () => {
    const store = await openStore();
    try {
      const userId = 'tampered-user';
      await writeLegacy(store, userId);
      await chargeCall(processAt(store, '2026-12-03T00:00:00.000Z'), { userId, chargeId: 'call-9', product: 'screen', details });
      // someone appends a second opening with more money to the December period
      const december = ledgerPeriodStream(userId, '2026-12-01T00:00:00.000Z');
      const [opened] = await (async () => {
        const events = [];
        for await (const e of store.read(december)) events.push(e);
        return events;
      })();
      await store.append(
        december,
        [
          {
            ...opened!,
            id: uuidIds.newId(),
            data: { ...(opened!.data as object), opening: { ...(opened!.data as { opening: object }).opening, balanceMicros: 99_000_000 } },
          },
        ],
        { expected: 'any' },
      );
      const breaks = [];
      for await (const period of walkLedgerChain(store, userId)) breaks.push(...period.breaks);
      expect(breaks.join('\n')).toMatch(/PeriodOpened at revision \d+, not first/);
      expect(breaks.join('\n')).toMatch(/opens with balance 99000000/);
    } finally {
      await store.close();
    }
  });
});
