/**
 * Ledger periods: what a cold load of one account costs with a year of history, in one legacy stream
 * (today's main) and as a chain of monthly periods. Prints its figures; rewrites nothing.
 *   npx tsx test/bench/ledger-periods.bench.ts [chargesPerMonth=3000] [months=12]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changePlan, chargeCall, deposit, readBalance } from '../../commands/billing.commands.js';
import type { CommandDeps } from '../../commands/command-deps.js';
import { createCommandExecutor } from '../../commands/command-executor.js';
import { ledgerDecider } from '../../domain/ledger/ledger.decider.js';
import { ledgerStream } from '../../domain/ledger/ledger.events.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { uuidIds, uuidV7 } from '../../infra/system/uuid-ids.js';

const perMonth = Number(process.argv[2] ?? 3000);
const months = Number(process.argv[3] ?? 12);
const START = Date.parse('2025-01-01T00:00:00.000Z');
const MONTH = 30 * 86_400_000;
const details = { endpoint: 'POST /v2/screen', keyId: null, network: null, subject: null };

const process_ = (store: EventStore, at: () => number): CommandDeps => {
  const clock = { now: () => new Date(at()) };
  return { executor: createCommandExecutor({ store, clock, ids: uuidIds }), clock, ids: uuidIds, random: cryptoRandom, bootId: 'bench' };
};

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-periods-bench-'));
  const store = await openLmdbEventStore(dir, { fsync: false });
  try {
    let now = START;
    const writer = process_(store, () => now);
    // the same history twice: as today's main wrote it (one stream), and through the period chain
    const legacy = 'legacy-user';
    await changePlan(writer, legacy, { kind: 'ledger' });
    await deposit(writer, { userId: legacy, depositId: 'd', amountMicros: 1e12 });
    const chained = 'chained-user';
    await changePlan(writer, chained, { kind: 'ledger' });
    await deposit(writer, { userId: chained, depositId: 'd', amountMicros: 1e12 });
    let legacyRevision = await store.streamRevision(ledgerStream(legacy));
    for (let m = 0; m < months; m++) {
      const batch = [];
      for (let i = 0; i < perMonth; i++) {
        now = START + m * MONTH + Math.floor((i * MONTH) / perMonth);
        const chargeId = uuidV7(now);
        const at = new Date(now).toISOString();
        batch.push({
          id: uuidIds.newId(),
          type: 'Charged',
          data: {
            chargeId,
            product: 'screen',
            units: 0,
            amountMicros: 100_000,
            periodStart: at.slice(0, 8) + '01T00:00:00.000Z',
            at,
            details,
          },
          metadata: { correlationId: 'bench', occurredAt: at, schemaVersion: 1 },
        });
        await chargeCall(writer, { userId: chained, chargeId, product: 'screen', details });
      }
      const appended = await store.append(ledgerStream(legacy), batch, { expected: legacyRevision });
      legacyRevision = appended.nextExpectedRevision;
    }

    const [legacyLoad, legacyMs] = await timed(() => process_(store, () => now).executor.load(ledgerStream(legacy), ledgerDecider));
    const [chainedLoad, chainedMs] = await timed(() =>
      readBalance(
        process_(store, () => now),
        chained,
      ),
    );
    console.log(`history: ${months} months × ${perMonth} charges`);
    console.log(`legacy single stream: cold load ${legacyMs.toFixed(1)} ms, ${legacyLoad.state.charges.size} charge ids in state`);
    console.log(`period chain:        cold load ${chainedMs.toFixed(1)} ms, ${chainedLoad.state.charges.size} charge ids in state`);

    const fresh = process_(store, () => now);
    await readBalance(fresh, chained);
    const [, newChargeMs] = await timed(() => chargeCall(fresh, { userId: chained, chargeId: uuidV7(now), product: 'screen', details }));
    const firstMonthId = await (async () => {
      for await (const e of store.read(`${ledgerStream(chained)}`))
        if (e.type === 'Charged') return (e.data as { chargeId: string }).chargeId;
      return '';
    })();
    const [oldPoll, oldPollMs] = await timed(() =>
      chargeCall(fresh, { userId: chained, chargeId: firstMonthId, product: 'screen', details }),
    );
    console.log(`new charge (uuid v7, warm head): ${newChargeMs.toFixed(2)} ms`);
    console.log(`poll of a charge taken ${months - 1} months ago: ${oldPollMs.toFixed(1)} ms, duplicate=${oldPoll.duplicate}`);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
