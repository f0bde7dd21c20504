import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLmdbEventStore, type LmdbEventStore } from './lmdb-event-store.js';
import { openLmdbReadStore, type LmdbReadStore } from './lmdb-read-store.js';
import { startProjectionThread } from './projection-thread.js';

/**
 * The projection thread on a real log and LMDB environment: it folds what the writer appends into the
 * read models the service's thread reads, a read that waited for a position sees it, and a thread that
 * cannot run fails every wait instead of leaving it hanging.
 */
const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function setUp(readModelsDir?: string) {
  const dir = await mkdtemp(join(tmpdir(), 'projection-thread-'));
  dirs.push(dir);
  const store: LmdbEventStore = await openLmdbEventStore(join(dir, 'events'), { fsync: false });
  closers.push(() => store.close());
  const models = readModelsDir ?? join(dir, 'read-models');
  const readStore: LmdbReadStore = await openLmdbReadStore(join(dir, 'read-models'));
  closers.push(() => readStore.close());
  const errors: string[] = [];
  const thread = startProjectionThread({
    store,
    readStore,
    data: { storeDir: join(dir, 'events'), readModelsDir: models, fsync: false, name: 'projections', sinkStreams: [] },
    onError: (error, where) => errors.push(`${where}: ${String(error)}`),
  });
  return { dir, store, readStore, thread, errors };
}

const metadata = { correlationId: 'thread-test', occurredAt: '2026-11-27T10:00:00.000Z', schemaVersion: 1 };
const deposit = (micros: number) => ({
  id: randomUUID(),
  type: 'FundsDeposited',
  data: { depositId: randomUUID(), amountMicros: micros, at: '2026-11-27T10:00:00.000Z' },
  metadata,
});

describe('projection thread', () => {
  it('folds what the writer appends into the read models this thread reads, once a wait for it returns', async () => {
    const { store, readStore, thread } = await setUp();
    await thread.start();
    closers.push(() => thread.stop());
    const balances = readStore.collection<{ balance_micros: number }>('balances');
    const first = await store.append('ledger-u1', [deposit(1_000_000)], { expected: 'no_stream' });
    await thread.whenProcessed(first.position);
    expect((await balances.get('u1'))?.doc.balance_micros).toBe(1_000_000);
    // Read (and cached) here, then changed there: the wait's answer carries what the thread wrote.
    const second = await store.append('ledger-u1', [deposit(500_000)], { expected: 0n });
    await thread.whenCaughtUp();
    expect((await balances.get('u1'))?.doc.balance_micros).toBe(1_500_000);
    expect(thread.progress().position).toEqual(second.position);
    expect(thread.eventsRead()).toBe(2);
  });

  it('resumes from its checkpoint after a stop, reading only what came after it', async () => {
    const { dir, store, readStore, thread } = await setUp();
    await thread.start();
    await store.append('ledger-u2', [deposit(1_000_000)], { expected: 'no_stream' });
    await thread.whenCaughtUp();
    await thread.stop();
    const later = await store.append('ledger-u2', [deposit(2_000_000)], { expected: 0n });
    const again = startProjectionThread({
      store,
      readStore,
      data: { storeDir: join(dir, 'events'), readModelsDir: join(dir, 'read-models'), fsync: false, name: 'projections', sinkStreams: [] },
      onError: () => undefined,
    });
    await again.start();
    closers.push(() => again.stop());
    await again.whenProcessed(later.position);
    expect(again.eventsRead()).toBe(1);
    expect((await readStore.collection<{ balance_micros: number }>('balances').get('u2'))?.doc.balance_micros).toBe(3_000_000);
  });

  it('fails its start and every wait when the thread cannot run, and says so', async () => {
    const blocked = join(await mkdtemp(join(tmpdir(), 'projection-thread-')), 'not-a-directory');
    dirs.push(blocked);
    await writeFile(blocked, 'a file where the read models should be');
    const { store, thread, errors } = await setUp(blocked);
    await expect(thread.start()).rejects.toThrow();
    const appended = await store.append('ledger-u3', [deposit(1)], { expected: 'no_stream' });
    await expect(thread.whenProcessed(appended.position)).rejects.toThrow();
    expect(errors.join('\n')).toMatch(/^projection thread: .*Not a directory/m);
  });
});
