import { randomUUID } from 'node:crypto';
import { appendFile, cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import { openLmdbCheckpointStore } from './lmdb-checkpoint-store.js';
import { openLmdbEventStore } from './lmdb-event-store.js';

/** A data directory written by the framed-log store (test/fixtures/legacy-data-dir/README.md says what it holds). */
const FIXTURE = fileURLToPath(new URL('../../test/fixtures/legacy-data-dir', import.meta.url));
const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
/** [stream, revision, commit, prepare, type] of each event in `$all` order, as the old store numbered them. */
const EXPECTED: [string, bigint, bigint, bigint, string][] = [
  ['account-alpha', 0n, 0n, 0n, 'AccountOpened'],
  ['screen-0xaaaa', 0n, 281n, 0n, 'AddressScreened'],
  ['screen-0xaaaa', 1n, 281n, 1n, 'Charged'],
  ['account-alpha', 1n, 759n, 0n, 'CreditAdded'],
  ['screen-0xbbbb', 0n, 1035n, 0n, 'AddressScreened'],
  ['account-alpha', 2n, 1327n, 0n, 'CreditUsed'],
  ['account-alpha', 3n, 1327n, 1n, 'CreditUsed'],
  ['account-alpha', 4n, 1327n, 2n, 'CreditUsed'],
  ['screen-0xaaaa', 2n, 1980n, 0n, 'AddressScreened'],
];

const dirs: string[] = [];
async function legacyCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'legacy-data-dir-'));
  dirs.push(dir);
  await cp(FIXTURE, dir, { recursive: true });
  await rm(join(dir, 'README.md'));
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
const summary = (e: RecordedEvent) => [e.streamId, e.revision, e.position.commit, e.position.prepare, e.type];

describe('a data directory written by the framed-log store', () => {
  it('is migrated at the first open: every event at its position and revision, every checkpoint', async () => {
    const dataDir = await legacyCopy();
    const store = await openLmdbEventStore(join(dataDir, 'store'), { fsync: false, legacyDataDir: dataDir });
    const all = await collect(store.readAll());
    expect(all.map(summary)).toEqual(EXPECTED);
    expect(all.map((e) => e.id)).toEqual(EXPECTED.map((_, i) => id(i + 1)));
    expect(all[0]!.data).toEqual({ name: 'Alpha Test Ltd' });
    expect(all[0]!.metadata).toEqual({ correlationId: 'corr-1', occurredAt: '2026-01-02T00:00:00.000Z', schemaVersion: 1 });
    expect(await store.streamRevision('account-alpha')).toBe(4n);
    expect(await store.streamRevision('screen-0xaaaa')).toBe(2n);
    expect(await store.streamRevision('screen-0xbbbb')).toBe(0n);
    expect((await collect(store.read('account-alpha', { direction: 'backwards' }))).map((e) => e.type)).toEqual([
      'CreditUsed',
      'CreditUsed',
      'CreditUsed',
      'CreditAdded',
      'AccountOpened',
    ]);
    expect(await store.headPosition()).toEqual({ commit: 1980n, prepare: 0n });
    expect(await store.checkpoints.load('relay')).toEqual({ commit: 1327n, prepare: 2n });
    expect(await store.checkpoints.load('projection:accounts')).toEqual({ commit: 0n, prepare: 0n });
    // A subscription from the relay's checkpoint goes on from the next event.
    const after = await collect(store.readAll({ after: { commit: 1327n, prepare: 2n } }));
    expect(after.map(summary)).toEqual([EXPECTED[8]]);
    // The append rule knows the migrated streams, and new positions come after the old ones.
    await expect(store.append('account-alpha', [tested()], { expected: 3n })).rejects.toMatchObject({ code: 'wrong_expected_version' });
    const next = await store.append('account-alpha', [tested()], { expected: 4n });
    expect(next.position.commit > 1980n).toBe(true);
    await store.close();
    expect((await readdir(dataDir)).sort()).toEqual(['checkpoints.migrated', 'events.migrated', 'store']);
  });

  it('is migrated once: a reopen reads the store alone', async () => {
    const dataDir = await legacyCopy();
    const first = await openLmdbEventStore(join(dataDir, 'store'), { fsync: false, legacyDataDir: dataDir });
    await first.checkpoints.store('relay', { commit: 1980n, prepare: 0n }, { commit: 1327n, prepare: 2n });
    await first.close();
    const second = await openLmdbEventStore(join(dataDir, 'store'), { fsync: false, legacyDataDir: dataDir });
    expect((await collect(second.readAll())).map(summary)).toEqual(EXPECTED);
    expect(await second.checkpoints.load('relay')).toEqual({ commit: 1980n, prepare: 0n });
    await second.close();
  });

  it('resumes a migration a crash cut short, and drops a torn last frame', async () => {
    const dataDir = await legacyCopy();
    const log = join(dataDir, 'events', 'events.log');
    const whole = await readFile(log);
    // The first three appends only (the log up to the frame at 1035), as if the migration had stopped there.
    await writeFile(log, whole.subarray(0, 1035));
    const partial = await openLmdbEventStore(join(dataDir, 'store'), { fsync: false, legacyDataDir: dataDir });
    expect((await collect(partial.readAll())).length).toBe(4);
    await partial.close();
    // The whole log back in place, as the crash left it before the directory was renamed.
    await rm(join(dataDir, 'events.migrated'), { recursive: true });
    await cp(join(FIXTURE, 'events'), join(dataDir, 'events'), { recursive: true });
    await appendFile(log, Buffer.from([0x52, 0x53, 0x46, 0x31, 0, 0, 1])); // a frame cut inside its header
    const store = await openLmdbEventStore(join(dataDir, 'store'), { fsync: false, legacyDataDir: dataDir });
    expect((await collect(store.readAll())).map(summary)).toEqual(EXPECTED);
    await store.close();
  });

  it('refuses a log with a corrupt frame in the middle, and leaves it in place', async () => {
    const dataDir = await legacyCopy();
    const log = join(dataDir, 'events', 'events.log');
    const bytes = await readFile(log);
    bytes[281 + 20] = bytes[281 + 20]! ^ 0xff;
    await writeFile(log, bytes);
    const opening = openLmdbEventStore(join(dataDir, 'store'), { fsync: false, legacyDataDir: dataDir });
    await expect(opening).rejects.toMatchObject({ code: 'store_corrupt', message: `${log}: corrupt record at byte offset 281` });
    expect((await readdir(dataDir)).sort()).toEqual(['checkpoints', 'events', 'store']);
  });

  it('has its checkpoints migrated by the checkpoint store alone (an external event store)', async () => {
    const dataDir = await legacyCopy();
    const checkpoints = await openLmdbCheckpointStore(join(dataDir, 'store'), { legacyDataDir: dataDir });
    expect(await checkpoints.load('relay')).toEqual({ commit: 1327n, prepare: 2n });
    await checkpoints.close();
    expect((await readdir(dataDir)).sort()).toEqual(['checkpoints.migrated', 'events', 'store']);
  });
});

function tested() {
  const metadata = { correlationId: randomUUID(), occurredAt: new Date(0).toISOString(), schemaVersion: 1 };
  return { id: randomUUID(), type: 'Tested', data: {}, metadata };
}
