import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EventData, EventStore, RecordedEvent } from '../../domain/ports/event-store.port.js';
import { encodeAppend } from './event-record.codec.js';
import { type FileEventStore, openFileEventStore, RECORD_CACHE_SIZE } from './file-event-store.js';
import { FramedLog } from './framed-log.js';

const dirs: string[] = [];
const newDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'event-index-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('file event store index', () => {
  const opened: EventStore[] = [];
  const open = async (dir: string) => {
    const store = await openFileEventStore(dir);
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  it('opens a data directory written before the index existed, indexing its log once', async () => {
    const dir = await newDir();
    // The log exactly as the previous code path wrote it: framed appends, no index beside it.
    const { log } = await FramedLog.open(join(dir, 'events.log'));
    const created = new Date('2026-01-02T03:04:05Z');
    const [a, b, c] = [event(), event(), event()];
    await log.append([encodeAppend({ stream: 'x', created, events: [a, b] }), encodeAppend({ stream: 'y', created, events: [c] })]);
    await log.append([encodeAppend({ stream: 'x', created, events: [event()] })]);
    await log.close();
    expect(await readdir(dir)).toEqual(['events.log']);

    const store = await open(dir);
    expect(await store.streamRevision('x')).toBe(2n);
    expect((await collect(store.read('x'))).map((e) => [e.id, e.revision])).toEqual([
      [a.id, 0n],
      [b.id, 1n],
      [expect.any(String), 2n],
    ]);
    expect((await collect(store.readAll())).map((e) => `${e.streamId}@${e.revision}`)).toEqual(['x@0', 'x@1', 'y@0', 'x@2']);
    // The idempotence rule sees the old events: re-appending them writes nothing.
    expect(await store.append('x', [a, b], { expected: 'no_stream' })).toMatchObject({ nextExpectedRevision: 1n });
    expect((await store.append('y', [event()], { expected: 0n })).nextExpectedRevision).toBe(1n);
    await store.close();
    expect((await readdir(dir)).sort()).toEqual(['events.log', 'events.streams.mdb', 'events.streams.mdb-lock']);
    expect(await (await open(dir)).streamRevision('y')).toBe(1n);
  });

  it('opens a data directory indexed by an earlier version (an entry per event), indexing its log anew and removing that index', async () => {
    const dir = await newDir();
    const first = await open(dir);
    const a = event();
    await first.append('x', [a, event()], { expected: 'no_stream' });
    await first.close();
    // The earlier index files in place of this version's (their content is never read: the log is indexed again).
    await rm(join(dir, 'events.streams.mdb'));
    await rm(join(dir, 'events.streams.mdb-lock'));
    await writeFile(join(dir, 'events.index.mdb'), 'an index of the earlier layout');
    await writeFile(join(dir, 'events.index.mdb-lock'), '');

    const store = await open(dir);
    expect(await store.streamRevision('x')).toBe(1n);
    expect(await store.append('x', [a], { expected: 'no_stream' })).toMatchObject({ nextExpectedRevision: 0n });
    expect((await readdir(dir)).sort()).toEqual(['LOCK', 'events.log', 'events.streams.mdb', 'events.streams.mdb-lock']);
  });

  it('indexes the log tail the index missed (killed between the log write and the index commit)', async () => {
    const dir = await newDir();
    const store = await open(dir);
    const early = [event(), event()];
    await store.append('s', early, { expected: 'no_stream' });
    await store.close();
    const staleIndex = join(await newDir(), 'stale.mdb');
    await copyFile(join(dir, 'events.streams.mdb'), staleIndex);

    const again = await open(dir);
    const late = [event()];
    await again.append('s', late, { expected: 1n });
    await again.append('t', [event()], { expected: 'no_stream' });
    const before = await collect(again.readAll());
    await again.close();
    await copyFile(staleIndex, join(dir, 'events.streams.mdb'));

    const recovered = await open(dir);
    expect(await collect(recovered.readAll())).toEqual(before);
    expect(await recovered.streamRevision('s')).toBe(2n);
    expect(await recovered.headPosition()).toEqual(before.at(-1)!.position);
    expect(await recovered.append('s', late, { expected: 1n })).toMatchObject({ nextExpectedRevision: 2n });
    expect((await recovered.append('s', [event()], { expected: 2n })).nextExpectedRevision).toBe(3n);
  });

  it('builds the index anew when the log is not the one it indexed (shorter than its mark)', async () => {
    const dir = await newDir();
    const store = await open(dir);
    const first = await store.append('s', [event()], { expected: 'no_stream' });
    await store.append('s', [event()], { expected: 0n });
    await store.append('t', [event()], { expected: 'no_stream' });
    await store.close();
    // As after a crash with fsync off: the log lost records the index had seen.
    const secondAt = Number((await collect((await open(dir)).read('s')))[1]!.position.commit);
    await Promise.all(opened.splice(0).map((s) => s.close()));
    await truncate(join(dir, 'events.log'), secondAt);

    const reopened = await open(dir);
    expect(await reopened.streamRevision('s')).toBe(0n);
    expect(await reopened.streamRevision('t')).toBe(-1n);
    expect(await reopened.headPosition()).toEqual(first.position);
    expect((await reopened.append('s', [event()], { expected: 0n })).nextExpectedRevision).toBe(1n);
  });

  it('numbers appends to one stream decided in the same round consecutively, as a restart does', async () => {
    const dir = await newDir();
    const store = await open(dir);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.append('same', [event(), event()].slice(0, 1 + (i % 2)), { expected: 'any' })),
    );
    expect(results.map((r) => r.nextExpectedRevision)).toEqual(results.map((_, i) => expectedLast(i)));
    const live = await collect(store.read('same'));
    await store.close();
    expect(await collect((await open(dir)).read('same'))).toEqual(live);
  });

  it('refuses a stream name too long for an index key, writing nothing', async () => {
    const store = await open(await newDir());
    await expect(store.append('s'.repeat(1025), [event()], { expected: 'any' })).rejects.toMatchObject({ code: 'bad_request' });
    expect(await store.headPosition()).toBeNull();
    expect((await store.append('s'.repeat(1024), [event()], { expected: 'any' })).nextExpectedRevision).toBe(0n);
  });

  it('keeps no more decoded records than its cache holds, however much is read', async () => {
    const dir = await newDir();
    const store = (await open(dir)) as FileEventStore;
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(Array.from({ length: RECORD_CACHE_SIZE }, (_, i) => store.append(`s-${i}`, [event()], { expected: 'any' })));
    }
    expect(store.cachedRecords).toBe(RECORD_CACHE_SIZE);
    expect((await collect(store.readAll())).length).toBe(3 * RECORD_CACHE_SIZE);
    expect(store.cachedRecords).toBe(RECORD_CACHE_SIZE);
    expect((await stat(join(dir, 'events.log'))).size).toBeGreaterThan(0);
  });

  it('serves a subscriber that follows the tail from its cache of recent records, without reading the log', async () => {
    const dir = await newDir();
    const store = await open(dir);
    const appended = [];
    for (let i = 0; i < 5; i += 1) appended.push((await store.append(`s-${i}`, [event(), event()], { expected: 'any' })).position);
    // Garble the log on disk (same size): a reader that went to the file would fail its frame checks.
    const size = (await stat(join(dir, 'events.log'))).size;
    await writeFile(join(dir, 'events.log'), Buffer.alloc(size, 0x55));

    const fromStart = await collect(store.readAll());
    expect(fromStart.map((e) => `${e.streamId}@${e.revision}`)).toEqual([
      's-0@0',
      's-0@1',
      's-1@0',
      's-1@1',
      's-2@0',
      's-2@1',
      's-3@0',
      's-3@1',
      's-4@0',
      's-4@1',
    ]);
    // From inside a record (its first event delivered already): the rest of it, then the records after it.
    const middle = { commit: appended[2]!.commit, prepare: 0n };
    expect((await collect(store.readAll({ after: middle }))).map((e) => `${e.streamId}@${e.revision}`)).toEqual([
      's-2@1',
      's-3@0',
      's-3@1',
      's-4@0',
      's-4@1',
    ]);
  });

  it('reads the records its cache no longer holds from the log, then the cached ones, in log order', async () => {
    const store = await open(await newDir());
    const total = RECORD_CACHE_SIZE + 10;
    await Promise.all(Array.from({ length: total }, () => store.append('one', [event()], { expected: 'any' })));
    const all = await collect(store.readAll());
    expect(all.map((e) => e.revision)).toEqual(Array.from({ length: total }, (_, i) => BigInt(i)));
  });
});

/** Appends of 1, 2, 1, 2, … events: the last revision after append i. */
function expectedLast(i: number): bigint {
  let total = 0;
  for (let k = 0; k <= i; k += 1) total += 1 + (k % 2);
  return BigInt(total - 1);
}

function event(): EventData {
  return {
    id: randomUUID(),
    type: 'Tested',
    data: { n: 1 },
    metadata: { correlationId: randomUUID(), occurredAt: '2024-05-01T12:00:00.000Z', schemaVersion: 1 },
  };
}

async function collect(iterable: AsyncIterable<RecordedEvent>): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
