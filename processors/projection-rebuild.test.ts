import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandDeps } from '../commands/command-deps.js';
import { createCommandExecutor } from '../commands/command-executor.js';
import { finishProjectionRebuild, startProjectionRebuild } from '../commands/projection-rebuild.commands.js';
import type { EventStore } from '../domain/ports/event-store.port.js';
import type { Projection } from '../domain/ports/projection.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { openLmdbEventStore } from '../infra/embedded/lmdb-event-store.js';
import { cryptoRandom } from '../infra/system/crypto-random.js';
import { systemClock } from '../infra/system/system-clock.js';
import { uuidIds } from '../infra/system/uuid-ids.js';
import { openTempReadStore } from '../test/support/temp-read-store.js';
import { createProjectionRunner, type ProjectionRunner } from './projection-runner.js';
import { rebuildProjection, type RebuildProgress } from './projection-rebuild.js';

type Counter = { n: number; last: number; name: string | null };

/**
 * A counter per stream. `Named` only updates an existing counter: applied to a missing one it deletes
 * (a tombstone), which is how a document written on a half-copied base used to swallow its own creation.
 */
// Types of its own, not the service's: a raw Projection, which defineProjection would refuse.
const counters: Projection<Counter> = {
  name: 'counters',
  collection: 'counters',
  indexes: ['n'],
  handles: ['Counted', 'Named'],
  idOf: (event) => event.streamId,
  evolve: (doc, event) => {
    if (event.type === 'Named') return doc ? { ...doc, name: (event.data as { name: string }).name } : null;
    const by = (event.data as { by: number }).by;
    if (by < 0) throw new Error('negative count');
    return { n: (doc?.n ?? 0) + 1, last: by, name: doc?.name ?? null };
  },
};

const meta = () => ({ correlationId: uuidIds.newId(), occurredAt: new Date(0).toISOString(), schemaVersion: 1 });
const append = (store: EventStore, stream: string, type: string, data: unknown) =>
  store.append(stream, [{ id: uuidIds.newId(), type, data, metadata: meta() }], { expected: 'any' });
const count = (store: EventStore, stream: string, by: number) => append(store, stream, 'Counted', { by });

interface Harness {
  store: EventStore;
  readStore: ReadStore;
  commands: CommandDeps;
  runner: ProjectionRunner;
  rebuild(progress?: (p: RebuildProgress) => void, readStore?: ReadStore): ReturnType<typeof rebuildProjection>;
  /** The reference: `$all` folded from scratch through the projection alone. */
  freshFold(): Promise<Map<string, Counter | null>>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harness(): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'rebuild-'));
  const store = await openLmdbEventStore(dir, { fsync: false });
  const readStore = await openTempReadStore();
  const commands: CommandDeps = {
    executor: createCommandExecutor({ store, clock: systemClock, ids: uuidIds }),
    clock: systemClock,
    ids: uuidIds,
    random: cryptoRandom,
    bootId: 'test',
  };
  const runner = createProjectionRunner({ store, readStore, projections: [counters] });
  await runner.start();
  cleanups.push(async () => {
    await runner.stop();
    await readStore.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    store,
    readStore,
    commands,
    runner,
    rebuild: (progress, over = readStore) =>
      rebuildProjection({ store, readStore: over, commands, whenProjected: (p) => runner.whenProcessed(p) }, counters, progress),
    async freshFold() {
      const docs = new Map<string, Counter | null>();
      for await (const event of store.readAll()) {
        if (counters.handles.includes(event.type)) docs.set(event.streamId, counters.evolve(docs.get(event.streamId) ?? null, event));
      }
      return docs;
    },
  };
}

async function expectEqualsFreshFold(h: Harness) {
  await h.runner.whenCaughtUp();
  const live = h.readStore.collection<Counter>(counters.collection);
  const expected = await h.freshFold();
  for (const [id, doc] of expected) expect((await live.get(id))?.doc ?? null, id).toEqual(doc);
  expect(await live.count({})).toBe([...expected.values()].filter(Boolean).length);
}

describe('rebuildProjection', () => {
  it('Given a damaged read model, When rebuilt, Then it equals a fresh fold of $all and the damage is gone', async () => {
    const h = await harness();
    for (let i = 0; i < 30; i++) await count(h.store, `c-${i % 7}`, i);
    await h.runner.whenCaughtUp();
    const live = h.readStore.collection<Counter>(counters.collection, counters.indexes);
    // Damage the position guard cannot repair: a bogus document at a far-future position, and a stray one.
    await live.apply('c-0', { commit: 10n ** 15n, prepare: 10n ** 15n }, () => ({ n: 999, last: -1, name: null }));
    await live.apply('stray', { commit: 1n, prepare: 1n }, () => ({ n: 1, last: 1, name: null }));

    const progress: RebuildProgress[] = [];
    const report = await h.rebuild((p) => progress.push(p));

    expect(report).toMatchObject({ projection: 'counters', events: 31, applied: 30, failed: 0, caughtUp: 0, documents: 7 }); // 30 + the rebuild's start
    expect(await live.get('stray')).toBeNull();
    await expectEqualsFreshFold(h);
    expect((await live.find({ where: { n: 5 } })).length).toBe(2);
    expect(progress.some((p) => p.phase === 'fold' && p.position === p.head)).toBe(true);
    expect(progress.at(-1)!.phase).toBe('catch-up');
  });

  it('Given documents created and changed while the rebuild copies, When it finishes, Then none is lost or left half-built', async () => {
    const h = await harness();
    for (let i = 0; i < 5; i++) await count(h.store, 'c', i);
    await h.runner.whenCaughtUp();
    // A document is created just before the rebuilt collection takes over and changed just after, in a way
    // that needs its creation (`Named`); the live runner reads each event at once.
    const racing: ReadStore = {
      ...h.readStore,
      collection: (name, indexes) => h.readStore.collection(name, indexes),
      async replace(target, source) {
        await count(h.store, 'late', 7);
        await count(h.store, 'c', 5);
        await h.runner.whenCaughtUp();
        await h.readStore.replace(target, source);
        await append(h.store, 'late', 'Named', { name: 'late one' });
        await h.runner.whenCaughtUp();
      },
    };
    const report = await h.rebuild(undefined, racing);
    expect(report).toMatchObject({ caughtUp: 3, documents: 2, failed: 0 });
    expect((await h.readStore.collection<Counter>(counters.collection).get('late'))?.doc).toEqual({ n: 1, last: 7, name: 'late one' });
    await expectEqualsFreshFold(h);
  });

  it('Given a rebuild under way, When events arrive, Then the runner leaves the read model alone until it finishes', async () => {
    const h = await harness();
    await count(h.store, 'a', 1);
    const { rebuildId } = await startProjectionRebuild(h.commands, counters.name);
    await count(h.store, 'a', 2);
    await count(h.store, 'b', 3);
    await h.runner.whenCaughtUp();
    const live = h.readStore.collection<Counter>(counters.collection);
    expect((await live.get('a'))?.doc.n).toBe(1);
    expect(await live.get('b')).toBeNull();

    // Abandoned: the runner applies what it skipped since the start, on the old collection.
    await finishProjectionRebuild(h.commands, counters.name, rebuildId, null);
    await expectEqualsFreshFold(h);
  });

  it('Given an event whose evolve throws, When rebuilt, Then it is skipped and reported as the live runner would', async () => {
    const h = await harness();
    await count(h.store, 'a', 1);
    await count(h.store, 'a', -1);
    await count(h.store, 'a', 2);
    const report = await h.rebuild();
    expect(report).toMatchObject({ failed: 1, documents: 1 });
    expect(report.firstError).toContain('negative count');
    expect((await h.readStore.collection<Counter>(counters.collection).get('a'))?.doc).toEqual({ n: 2, last: 2, name: null });
  });
});
