import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { periodStartOf } from '../domain/billing/period.js';
import { ledgerDecider } from '../domain/ledger/ledger.decider.js';
import { ledgerStream, type LedgerEvent } from '../domain/ledger/ledger.events.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { EventStore } from '../domain/ports/event-store.port.js';
import { openLmdbEventStore } from '../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../infra/system/crypto-random.js';
import { uuidIds, uuidV7 } from '../infra/system/uuid-ids.js';
import { changePlan, chargeCall, deposit, readBalance, refundCall } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';
import { createCommandExecutor } from './command-executor.js';
import { ledgerHead } from './ledger-chain.js';
import { walkLedgerChain } from './ledger-chain-walk.js';

/**
 * Exactly-once charges across period boundaries. Several "processes" (executors with their own caches
 * and skewed clocks) race charges, repeats (polls), refunds and deposits on one ledger while the world
 * clock crosses month boundaries, and processes restart (lose their caches). Charge ids are of three
 * kinds: uuid v7 created before the first boundary (a check submitted on the 31st and delivered on the
 * 1st), uuid v7 created when first used, and ids that are not uuid v7 (looked up through the whole chain).
 * The auditor reads only the stored chain: each charge taken once, refunds bounded by their charge, no
 * overdraft, each period opening with the previous closing, every caller's answer agreeing with it.
 */

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** An hour and a half before a month ends. */
const START = Date.parse('2026-01-31T22:30:00.000Z');
const details = { endpoint: 'POST /v2/check-address', keyId: 'k1', network: 'ethereum', subject: '0xabc' };

type Op =
  | { kind: 'charge'; proc: number; id: number; price: number; delay: number }
  | { kind: 'refund'; proc: number; id: number; delay: number }
  | { kind: 'deposit'; proc: number; id: number; amount: number; delay: number }
  | { kind: 'restart'; proc: number; delay: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 7,
    arbitrary: fc.record({
      kind: fc.constant('charge' as const),
      proc: fc.nat(2),
      id: fc.nat(11),
      price: fc.constantFrom(100_000, 300_000, 700_000),
      delay: fc.nat(3),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), proc: fc.nat(2), id: fc.nat(12), delay: fc.nat(3) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      proc: fc.nat(2),
      id: fc.nat(3),
      amount: fc.integer({ min: 1, max: 2_000_000 }),
      delay: fc.nat(3),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), proc: fc.nat(2), delay: fc.nat(3) }) },
);

/** How far the world clock moves after a phase: often just across the next month boundary, sometimes weeks. */
const advanceArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 50 * MINUTE }) },
  { weight: 2, arbitrary: fc.integer({ min: 1 * DAY, max: 40 * DAY }) },
);

const phaseArb = fc.record({ ops: fc.array(opArb, { minLength: 1, maxLength: 12 }), advanceMs: advanceArb });

const scenarioArb = fc.record({
  processes: fc.integer({ min: 1, max: 3 }),
  /** Each process's clock runs this far from the world's (well inside the lookup's skew margin). */
  skews: fc.array(fc.integer({ min: -40 * MINUTE, max: 40 * MINUTE }), { minLength: 3, maxLength: 3 }),
  funds: fc.integer({ min: 0, max: 4_000_000 }),
  /** Creation times of the ids "submitted before the boundary". */
  submittedBefore: fc.array(fc.integer({ min: 0, max: 2 * DAY }), { minLength: 12, maxLength: 12 }),
  phases: fc.array(phaseArb, { minLength: 2, maxLength: 6 }),
});

interface StoredChain {
  readonly streams: string[];
  readonly events: { stream: string; event: LedgerEvent }[];
}

/** The auditor's own walk: root, then each PeriodClosed.next, reading the store only. */
async function readChain(store: EventStore, userId: string): Promise<StoredChain> {
  const streams: string[] = [];
  const events: StoredChain['events'] = [];
  let stream: string | null = ledgerStream(userId);
  while (stream !== null) {
    streams.push(stream);
    let next: string | null = null;
    const current: string = stream;
    for await (const recorded of store.read(current)) {
      const event: LedgerEvent = ledgerDecider.parse({ type: recorded.type, data: recorded.data })!;
      events.push({ stream: current, event });
      if (event.type === 'PeriodClosed') next = event.data.next;
    }
    stream = next;
  }
  return { streams, events };
}

function auditChain(chain: StoredChain) {
  let balance = 0;
  const charges = new Map<string, { amount: number; refunded: number }>();
  const deposits = new Set<string>();
  let previousStream: string | null = null;
  let previousMonth = -Infinity;
  for (const [index, { stream, event }] of chain.events.entries()) {
    const first = index === 0 || chain.events[index - 1]!.stream !== stream;
    if (first && stream !== chain.streams[0]) {
      expect(event.type, `${stream} starts with its opening`).toBe('PeriodOpened');
    }
    switch (event.type) {
      case 'PeriodOpened': {
        expect(event.data.previous).toBe(previousStream);
        expect(event.data.opening.balanceMicros, `${stream} opens with the previous closing balance`).toBe(balance);
        const month = Date.parse(event.data.month);
        expect(month, 'months rise along the chain').toBeGreaterThan(previousMonth);
        previousMonth = month;
        break;
      }
      case 'PeriodClosed':
        expect(event.data.closing.balanceMicros, `${stream} closes with its balance`).toBe(balance);
        previousStream = stream;
        break;
      case 'FundsDeposited':
        expect(deposits.has(event.data.depositId), `deposit ${event.data.depositId} twice`).toBe(false);
        deposits.add(event.data.depositId);
        balance += event.data.amountMicros;
        break;
      case 'Charged':
        expect(charges.has(event.data.chargeId), `charge ${event.data.chargeId} taken twice (again in ${stream})`).toBe(false);
        charges.set(event.data.chargeId, { amount: event.data.amountMicros, refunded: 0 });
        balance -= event.data.amountMicros;
        if (stream !== chain.streams[0]) expect(Date.parse(periodStartOf(event.data.at))).toBeLessThanOrEqual(previousMonth);
        break;
      case 'Refunded': {
        const charge = charges.get(event.data.chargeId);
        expect(charge, `refund of unknown charge ${event.data.chargeId}`).toBeDefined();
        charge!.refunded += event.data.amountMicros;
        expect(charge!.refunded).toBeLessThanOrEqual(charge!.amount);
        balance += event.data.amountMicros;
        break;
      }
      default:
        break;
    }
    expect(balance, 'balance below zero').toBeGreaterThanOrEqual(0);
  }
  return { balance, charges };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ledger periods: a charge is taken exactly once across month boundaries', () => {
  it('property: racers, polls, refunds, restarts and skewed clocks over month boundaries', { timeout: 240_000 }, async () => {
    /** Runs whose ledger rolled over, and whose charges were polled again in a later period than they were taken. */
    let rolledOver = 0;
    let polledAcross = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ processes, skews, funds, submittedBefore, phases }) => {
        const dir = await mkdtemp(join(tmpdir(), 'ledger-chain-'));
        dirs.push(dir);
        const store = await openLmdbEventStore(dir, { fsync: false });
        try {
          let world = START;
          // Each reading moves the clock a millisecond (as in command-executor.test.ts): two processes deciding
          // the same charge at the same millisecond derive the same event ids, the store takes the second append
          // for a retry of the first, and both callers are told "charged" (charged once): a known limit of
          // deterministic event ids, not of periods.
          let ticks = 0;
          const clockOf = (proc: number): Clock => ({ now: () => new Date(world + skews[proc]! + ticks++) });
          const processOn = (proc: number): CommandDeps => {
            const clock = clockOf(proc);
            return {
              executor: createCommandExecutor({ store, clock, ids: uuidIds }),
              clock,
              ids: uuidIds,
              random: cryptoRandom,
              bootId: `boot-${proc}`,
            };
          };
          const procs = Array.from({ length: processes }, (_, proc) => processOn(proc));
          const ids = new Map<number, string>();
          const idOf = (n: number): string => {
            if (!ids.has(n)) {
              if (n % 3 === 0) ids.set(n, `job-${n}`);
              else if (n % 3 === 1) ids.set(n, uuidV7(START - submittedBefore[n]!));
              else ids.set(n, uuidV7(world));
            }
            return ids.get(n)!;
          };

          const userId = `u-${uuidIds.newId()}`;
          await changePlan(procs[0]!, userId, { kind: 'ledger' });
          if (funds > 0) await deposit(procs[0]!, { userId, depositId: 'initial', amountMicros: funds });

          const outcomes: { op: Op; chargeId: string; result: PromiseSettledResult<{ duplicate: boolean }>; headAfter: string }[] = [];
          for (const phase of phases) {
            const running = phase.ops.map(async (op) => {
              const chargeId = op.kind === 'charge' || op.kind === 'refund' ? idOf(op.id) : '';
              const result = await (async () => {
                for (let i = 0; i < op.delay; i++) await tick();
                const index = op.proc % processes;
                const deps = procs[index]!;
                switch (op.kind) {
                  case 'charge':
                    return {
                      duplicate: (await chargeCall(deps, { userId, chargeId, product: 'screen', details, priceMicros: op.price }))
                        .duplicate,
                    };
                  case 'refund':
                    await refundCall(deps, { userId, chargeId, reason: 'test' });
                    return { duplicate: false };
                  case 'deposit':
                    await deposit(deps, { userId, depositId: `d${op.id}`, amountMicros: op.amount });
                    return { duplicate: false };
                  case 'restart':
                    procs[index] = processOn(index);
                    return { duplicate: false };
                }
              })().then(
                (value): PromiseSettledResult<{ duplicate: boolean }> => ({ status: 'fulfilled', value }),
                (reason: unknown): PromiseSettledResult<{ duplicate: boolean }> => ({ status: 'rejected', reason }),
              );
              // the period a repeat was answered in: not the one that took the charge means it was found across a boundary
              outcomes.push({ op, chargeId, result, headAfter: (await ledgerHead(procs[op.proc % processes]!, userId)).stream });
            });
            await Promise.all(running);
            world += phase.advanceMs;
          }

          const chain = await readChain(store, userId);
          const audit = auditChain(chain);
          if (chain.streams.length > 1) rolledOver++;
          const takenIn = new Map(
            chain.events.flatMap(({ stream, event }) => (event.type === 'Charged' ? [[event.data.chargeId, stream] as const] : [])),
          );
          if (
            outcomes.some(
              (o) =>
                o.op.kind === 'charge' &&
                o.result.status === 'fulfilled' &&
                o.result.value.duplicate &&
                o.headAfter !== takenIn.get(o.chargeId),
            )
          )
            polledAcross++;
          for (const { op, chargeId, result } of outcomes) {
            if (result.status === 'rejected') {
              const code = (result.reason as { code?: string }).code;
              const allowed =
                op.kind === 'charge' ? ['insufficient_funds', 'backend_unavailable'] : op.kind === 'refund' ? ['not_found'] : [];
              expect(allowed, `${op.kind} ${chargeId} refused with ${code}: ${String(result.reason)}`).toContain(code);
              if (code === 'backend_unavailable') expect(audit.charges.has(chargeId)).toBe(true);
            } else if (op.kind === 'charge') {
              expect(audit.charges.has(chargeId), `${chargeId} reported charged but not in the chain`).toBe(true);
            }
          }
          // each stored charge was reported as a new charge to exactly one caller, whatever the period it was polled in
          for (const chargeId of audit.charges.keys()) {
            const firsts = outcomes.filter(
              (o) => o.op.kind === 'charge' && o.chargeId === chargeId && o.result.status === 'fulfilled' && !o.result.value.duplicate,
            );
            expect(firsts, `${chargeId} reported charged ${firsts.length} times`).toHaveLength(1);
          }
          // the CLI's walker agrees: no break anywhere
          for await (const period of walkLedgerChain(store, userId)) expect(period.breaks).toEqual([]);
          // no ledger stream outside the chain
          const all = new Set<string>();
          for await (const e of store.readAll()) if (e.streamId.startsWith(ledgerStream(userId))) all.add(e.streamId);
          expect([...all].sort()).toEqual([...chain.streams].filter((s) => all.has(s)).sort());
          // every process, and a fresh one, reads the balance the chain adds up to
          for (const deps of [...procs, processOn(0)]) expect((await readBalance(deps, userId)).state.balanceMicros).toBe(audit.balance);
        } finally {
          await store.close();
        }
      }),
      { numRuns: Number(process.env.LEDGER_CHAIN_RUNS ?? 60) },
    );
    // the generated histories do cross boundaries with charges taken before and asked again after
    expect(rolledOver).toBeGreaterThan(20);
    expect(polledAcross).toBeGreaterThan(5);
  });
});
