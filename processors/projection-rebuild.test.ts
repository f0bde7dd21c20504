import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventStore, RecordedEvent } from '../domain/ports/event-store.port.js';
import { defineProjection } from '../domain/ports/projection.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { openFileEventStore } from '../infra/embedded/file-event-store.js';
import { createMemoryReadStore } from '../infra/embedded/memory-read-store.js';
import { uuidIds } from '../infra/system/uuid-ids.js';
import { rebuildProjection, type RebuildProgress } from './projection-rebuild.js';

/** A counter per stream: enough to tell a rebuilt read model from a damaged or stale one. */
const counters = defineProjection<{ n: number; last: number }>({
  name: 'counters',
  collection: 'counters',
  indexes: ['n'],
  handles: ['Counted'],
  idOf: (event) => event.streamId,
  evolve: (doc, event) => {
    const by = (event.data as { by: number }).by;
    if (by < 0) throw new Error('negative count');
    return { n: (doc?.n ?? 0) + 1, last: by };
  },
});

const meta = () => ({ correlationId: uuidIds.newId(), occurredAt: new Date(0).toISOString(), schemaVersion: 1 });
const count = (store: EventStore, stream: string, by: number) => store.append(stream, [{ id: uuidIds.newId(), type: 'Counted', data: { by }, metadata: meta() }], { expected: 'any' });

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function openStores(): Promise<{ store: EventStore; readStore: ReadStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'rebuild-'));
  dirs.push(dir);
  return { store: await openFileEventStore(dir, { fsync: false }), readStore: createMemoryReadStore() };
}

/** The live runner's fold, event by event through the position guard. */
async function foldLive(store: EventStore, readStore: ReadStore, event: RecordedEvent) {
  await readStore.collection(counters.collection).apply(event.streamId, event.position, (doc) => counters.evolve(doc as never, event));
}

describe('rebuildProjection', () => {
  it('Given a damaged read model, When rebuilt, Then every document equals a fresh fold of $all and the damage is gone', async () => {
    const { store, readStore } = await openStores();
    for (let i = 0; i < 30; i++) await count(store, `c-${i % 7}`, i);
    for await (const event of store.readAll()) await foldLive(store, readStore, event);
    const live = readStore.collection<{ n: number; last: number }>('counters', ['n']);
    // Damage the position guard cannot repair: a bogus document at a far-future position, and a stray one.
    await live.apply('c-0', { commit: 10n ** 15n, prepare: 10n ** 15n }, () => ({ n: 999, last: -1 }));
    await live.apply('stray', { commit: 1n, prepare: 1n }, () => ({ n: 1, last: 1 }));

    const progress: RebuildProgress[] = [];
    const report = await rebuildProjection({ store, readStore, ids: uuidIds }, counters, (p) => progress.push(p));

    expect(report).toMatchObject({ projection: 'counters', events: 30, applied: 30, failed: 0, caughtUp: 0, documents: 7 });
    expect(await live.get('stray')).toBeNull();
    for (let s = 0; s < 7; s++) {
      const expected = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 7 === s);
      expect((await live.get(`c-${s}`))?.doc).toEqual({ n: expected.length, last: expected.at(-1) });
    }
    expect((await live.find({ where: { n: 5 } })).length).toBe(2);
    const last = progress.at(-1)!;
    expect(last.phase).toBe('catch-up');
    expect(progress.some((p) => p.phase === 'fold' && p.position === p.head)).toBe(true);
    await store.close();
  });

  it('Given events appended (and folded live) during the rebuild, When the shadow takes over, Then the catch-up re-applies them', async () => {
    const { store, readStore } = await openStores();
    for (let i = 0; i < 5; i++) await count(store, 'c', i);
    let raced = false;
    // Right after the fold has read the log, an event is appended and folded at once into the live
    // collection by "another runner", before the shadow takes over.
    const racing: Pick<EventStore, 'readAll' | 'headPosition'> = {
      headPosition: () => store.headPosition(),
      readAll(options) {
        const inner = store.readAll(options);
        return (async function* () {
          yield* inner;
          if (raced) return;
          raced = true;
          const appended = await count(store, 'late', 7);
          for await (const e of store.readAll({ after: { commit: appended.position.commit - 1n, prepare: 0n } })) if (e.streamId === 'late') await foldLive(store, readStore, e);
        })();
      },
    };
    const report = await rebuildProjection({ store: racing, readStore, ids: uuidIds }, counters);
    const live = readStore.collection<{ n: number; last: number }>('counters');
    expect((await live.get('late'))?.doc).toEqual({ n: 1, last: 7 });
    expect((await live.get('c'))?.doc).toEqual({ n: 5, last: 4 });
    expect(report).toMatchObject({ events: 5, caughtUp: 1, documents: 2 });
    await store.close();
  });

  it('Given an event whose evolve throws, When rebuilt, Then it is skipped and reported as the live runner would', async () => {
    const { store, readStore } = await openStores();
    await count(store, 'a', 1);
    await count(store, 'a', -1);
    await count(store, 'a', 2);
    const report = await rebuildProjection({ store, readStore, ids: uuidIds }, counters);
    expect(report).toMatchObject({ failed: 1, documents: 1 });
    expect(report.firstError).toContain('negative count');
    expect((await readStore.collection('counters').get('a'))?.doc).toEqual({ n: 2, last: 2 });
    await store.close();
  });
});
