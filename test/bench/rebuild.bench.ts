import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandDeps } from '../../commands/command-deps.js';
import { createCommandExecutor } from '../../commands/command-executor.js';
import type { EventData, EventStore } from '../../domain/ports/event-store.port.js';
import type { ReadStore } from '../../domain/ports/read-store.port.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { openMongoStores } from '../../infra/mongo/mongo-stores.js';
import { cryptoRandom } from '../../infra/system/crypto-random.js';
import { systemClock } from '../../infra/system/system-clock.js';
import { uuidIds } from '../../infra/system/uuid-ids.js';
import { createProjectionRunner } from '../../processors/projection-runner.js';
import { rebuildProjection } from '../../processors/projection-rebuild.js';
import { accountsProjection } from '../../projections/accounts.projection.js';
import { updateReadme } from '../support/readme-figures.js';
import { openTempReadStore } from '../support/temp-read-store.js';

/**
 * bench:rebuild — `projections rebuild accounts` on a synthetic log (made-up accounts, plus as many events
 * the projection ignores), side by side in one run with a bare scan of the same `$all`: the embedded memory
 * read model, and a MongoDB-wire server when MONGO_URL is set (a smaller log: each document is a round trip).
 * With --write-readme, writes the table into docs/benchmarks.md between the bench:rebuild markers.
 */
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const MONGO_ACCOUNTS = Number(process.env.BENCH_MONGO_ACCOUNTS ?? 5_000);
const BATCH = 500;

const meta = () => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString(), schemaVersion: 1 });

async function fill(store: EventStore, accounts: number) {
  for (let from = 0; from < accounts; from += BATCH) {
    const appends: Promise<unknown>[] = [];
    for (let i = from; i < Math.min(accounts, from + BATCH); i++) {
      const userId = randomUUID();
      const at = new Date().toISOString();
      const opened: EventData = {
        id: randomUUID(),
        type: 'AccountOpened',
        data: { userId, email: `user-${i}@example.test`, displayName: `user ${i}`, at },
        metadata: meta(),
      };
      const noise: EventData = { id: randomUUID(), type: 'BenchNoise', data: { i }, metadata: meta() };
      appends.push(
        store.append(`account-${userId}`, [opened], { expected: 'no_stream' }),
        store.append(`noise-${i}`, [noise], { expected: 'no_stream' }),
      );
    }
    await Promise.all(appends);
  }
}

async function scan(store: EventStore): Promise<{ events: number; ms: number }> {
  const started = performance.now();
  let events = 0;
  for await (const _ of store.readAll()) events += 1;
  return { events, ms: performance.now() - started };
}

async function measure(label: string, accounts: number, openReadStore: () => Promise<{ readStore: ReadStore; close(): Promise<void> }>) {
  const dir = await mkdtemp(join(tmpdir(), 'bench-rebuild-'));
  const store = await openLmdbEventStore(dir, { fsync: false });
  const { readStore, close } = await openReadStore();
  const commands: CommandDeps = {
    executor: createCommandExecutor({ store, clock: systemClock, ids: uuidIds }),
    clock: systemClock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: 'bench',
  };
  const runner = createProjectionRunner({
    store,
    readStore,
    projections: [accountsProjection],
    onError: (error) => console.error(`projection runner: ${String(error)}`),
  });
  try {
    const phase = (name: string) => console.error(`${label}: ${name}`);
    await fill(store, accounts);
    phase('log written; folding it live');
    await runner.start();
    await runner.whenCaughtUp();
    phase('caught up; rebuilding');
    const bare = await scan(store);
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const report = await rebuildProjection(
      { store, readStore, commands, whenProjected: (p) => runner.whenProcessed(p) },
      accountsProjection,
    );
    const heapAfter = process.memoryUsage().heapUsed;
    if (report.documents !== accounts || report.failed !== 0) throw new Error(`rebuild lost documents: ${JSON.stringify(report)}`);
    return [
      `| bare scan of \`$all\` (${label}) | ${bare.events} | ${Math.round(bare.ms)} | ${Math.round(bare.events / (bare.ms / 1000))} | — |`,
      `| rebuild \`accounts\` (${label}) | ${report.events} (${report.documents} documents) | ${report.ms} | ${Math.round(report.events / (report.ms / 1000))} | ${Math.round((heapAfter - heapBefore) / 2 ** 20)} MB |`,
    ];
  } finally {
    await runner.stop();
    await close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const rows = await measure('embedded log → LMDB', ACCOUNTS, async () => {
    const readStore = await openTempReadStore();
    return { readStore, close: () => readStore.close() };
  });
  const mongoUrl = process.env.MONGO_URL;
  if (mongoUrl) {
    const mongo = async () => {
      const stores = await openMongoStores(mongoUrl, `bench_${randomUUID().slice(0, 8)}`);
      return { readStore: stores.readStore, close: async () => (await stores.readStore.close(), await stores.checkpoints.close()) };
    };
    rows.push(...(await measure('embedded log → FerretDB', MONGO_ACCOUNTS, mongo)));
  }
  const table = [
    `Measured by \`npm run bench:rebuild\` (${new Date().toISOString().slice(0, 10)}, 2-core machine; half of the events are ones the projection ignores${mongoUrl ? `; FerretDB 1.24 on 127.0.0.1, ${process.env.FERRETDB_BACKEND ?? 'unknown'} backend` : '; without MONGO_URL, no FerretDB row'}):`,
    '',
    '| run | events | ms | events/s | heap after − before |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  console.log(table);
  await updateReadme('bench:rebuild', table);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
