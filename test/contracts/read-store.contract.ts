import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position } from '../../domain/ports/event-store.port.js';
import type { CheckpointStore, Collection, Doc, ReadStore } from '../../domain/ports/read-store.port.js';

/**
 * One suite for every ReadStore adapter, written against the port only. Each test uses its own collection,
 * except the `clear` test, which opens its own store: `open` should hand out an isolated store (for MongoDB a
 * fresh database) so that clearing it cannot touch other suites' data.
 */

const pos = (commit: number, prepare = commit): Position => ({ commit: BigInt(commit), prepare: BigInt(prepare) });
const uniqueName = (prefix: string): string => `${prefix}_${randomUUID().replaceAll('-', '')}`;

interface Row extends Doc {
  readonly user: string;
  readonly at: string;
  readonly n: number;
  readonly tag?: string | null;
}

export function readStoreContract(name: string, open: () => Promise<ReadStore>): void {
  describe(`ReadStore contract: ${name}`, () => {
    let store: ReadStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
    });
    const fresh = <D extends Doc>(indexes?: readonly string[]): Collection<D> => store.collection<D>(uniqueName('c'), indexes);
    const set = (doc: Row) => () => doc;

    it('creates a document and returns it with its position', async () => {
      const rows = fresh<Row>();
      expect(await rows.get('a')).toBeNull();
      expect(await rows.apply('a', pos(10), set({ user: 'u', at: '2024', n: 1 }))).toBe('applied');
      expect(await rows.get('a')).toEqual({ id: 'a', doc: { user: 'u', at: '2024', n: 1 }, position: pos(10) });
    });

    it('hands the current document to the update', async () => {
      const rows = fresh<Row>();
      await rows.apply('a', pos(1), () => ({ user: 'u', at: '2024', n: 1 }));
      await rows.apply('a', pos(2), (current) => ({ ...current!, n: current!.n + 1 }));
      expect((await rows.get('a'))?.doc.n).toBe(2);
    });

    it('treats a write at or before the stored position as a duplicate, comparing commit then prepare', async () => {
      const rows = fresh<Row>();
      await rows.apply('a', pos(5, 3), set({ user: 'u', at: 'x', n: 1 }));
      expect(await rows.apply('a', pos(5, 3), set({ user: 'u', at: 'x', n: 2 }))).toBe('duplicate');
      expect(await rows.apply('a', pos(4, 4), set({ user: 'u', at: 'x', n: 3 }))).toBe('duplicate');
      expect(await rows.apply('a', pos(5, 2), set({ user: 'u', at: 'x', n: 4 }))).toBe('duplicate');
      expect((await rows.get('a'))?.doc.n).toBe(1);
      expect(await rows.apply('a', pos(5, 4), set({ user: 'u', at: 'x', n: 5 }))).toBe('applied');
      expect(await rows.apply('a', pos(6, 0), set({ user: 'u', at: 'x', n: 6 }))).toBe('applied');
      expect(await rows.get('a')).toMatchObject({ doc: { n: 6 }, position: pos(6, 0) });
    });

    it('guards each document on its own position', async () => {
      const rows = fresh<Row>();
      await rows.apply('a', pos(9), set({ user: 'u', at: 'x', n: 1 }));
      expect(await rows.apply('b', pos(3), set({ user: 'u', at: 'x', n: 2 }))).toBe('applied');
    });

    it('deletes when the update returns null, and an older replayed event does not bring it back', async () => {
      const rows = fresh<Row>(['user']);
      await rows.apply('a', pos(1), set({ user: 'u', at: 'x', n: 1 }));
      expect(await rows.apply('a', pos(2), () => null)).toBe('applied');
      expect(await rows.get('a')).toBeNull();
      expect(await rows.find({ where: { user: 'u' } })).toEqual([]);
      expect(await rows.count({})).toBe(0);
      expect(await rows.apply('a', pos(1), set({ user: 'u', at: 'x', n: 1 }))).toBe('duplicate');
      expect(await rows.get('a')).toBeNull();
      expect(await rows.apply('a', pos(3), (current) => current ?? { user: 'u', at: 'x', n: 7 })).toBe('applied');
      expect((await rows.get('a'))?.doc.n).toBe(7);
    });

    it('never hands out a live view of a stored document', async () => {
      const rows = fresh<{ list: number[] }>();
      const written = { list: [1] };
      await rows.apply('a', pos(1), () => written);
      written.list.push(2);
      const read = (await rows.get('a'))!.doc;
      try {
        (read.list as number[]).push(3);
      } catch {
        // frozen documents refuse the change, which is as good as copies
      }
      expect((await rows.get('a'))!.doc.list).toEqual([1]);
      expect((await rows.find({}))[0]!.list).toEqual([1]);
    });

    describe('find and count', () => {
      let rows: Collection<Row>;
      beforeAll(async () => {
        rows = fresh<Row>(['user', 'at']);
        const data: Row[] = [
          { user: 'alice', at: '2024-01-01T00:00:00Z', n: 3, tag: 'x' },
          { user: 'bob', at: '2024-01-02T00:00:00Z', n: 1, tag: null },
          { user: 'alice', at: '2024-01-03T00:00:00Z', n: 5 },
          { user: 'alice', at: '2024-01-04T00:00:00Z', n: 2, tag: 'x' },
          { user: 'bob', at: '2024-01-05T00:00:00Z', n: 4, tag: 'y' },
        ];
        for (const [i, doc] of data.entries()) await rows.apply(`r${i}`, pos(i + 1), () => doc);
      });
      const ns = (docs: readonly Row[]) => docs.map((d) => d.n);

      it('filters by equality on one or more fields', async () => {
        expect(ns(await rows.find({ where: { user: 'alice' }, orderBy: { field: 'n', direction: 'asc' } }))).toEqual([2, 3, 5]);
        expect(ns(await rows.find({ where: { user: 'alice', tag: 'x' }, orderBy: { field: 'n', direction: 'asc' } }))).toEqual([2, 3]);
        expect(ns(await rows.find({ where: { n: 4 } }))).toEqual([4]);
        expect(await rows.find({ where: { user: 'carol' } })).toEqual([]);
        expect(await rows.find({ where: { n: '4' } })).toEqual([]);
      });

      it('matches null against null and absent fields', async () => {
        expect(ns(await rows.find({ where: { tag: null }, orderBy: { field: 'n', direction: 'asc' } }))).toEqual([1, 5]);
      });

      it('applies an inclusive lower bound on a string field', async () => {
        const since = { field: 'at', value: '2024-01-03T00:00:00Z' };
        expect(ns(await rows.find({ since, orderBy: { field: 'at', direction: 'asc' } }))).toEqual([5, 2, 4]);
        expect(ns(await rows.find({ where: { user: 'bob' }, since }))).toEqual([4]);
      });

      it('orders, skips and limits', async () => {
        const desc = { field: 'n', direction: 'desc' } as const;
        expect(ns(await rows.find({ orderBy: desc }))).toEqual([5, 4, 3, 2, 1]);
        expect(ns(await rows.find({ orderBy: desc, skip: 1, limit: 2 }))).toEqual([4, 3]);
        expect(ns(await rows.find({ orderBy: desc, skip: 4, limit: 10 }))).toEqual([1]);
        expect(ns(await rows.find({ orderBy: desc, skip: 5 }))).toEqual([]);
        const page = await rows.find({
          where: { user: 'alice' },
          since: { field: 'at', value: '2024-01-02' },
          orderBy: { field: 'at', direction: 'desc' },
          limit: 1,
        });
        expect(ns(page)).toEqual([2]);
      });

      it('counts with where and since', async () => {
        expect(await rows.count({})).toBe(5);
        expect(await rows.count({ where: { user: 'alice' } })).toBe(3);
        expect(await rows.count({ where: { user: 'alice' }, since: { field: 'at', value: '2024-01-03T00:00:00Z' } })).toBe(2);
      });
    });

    it('clear removes every document of every collection', async () => {
      const own = await open();
      try {
        const one = own.collection<Row>(uniqueName('c'));
        const two = own.collection<Row>(uniqueName('c'), ['user']);
        await one.apply('a', pos(1), set({ user: 'u', at: 'x', n: 1 }));
        await two.apply('b', pos(2), set({ user: 'u', at: 'x', n: 2 }));
        await own.clear();
        expect(await one.get('a')).toBeNull();
        expect(await two.find({ where: { user: 'u' } })).toEqual([]);
        expect(await two.count({})).toBe(0);
        expect(await one.apply('a', pos(1), set({ user: 'u', at: 'x', n: 3 }))).toBe('applied');
      } finally {
        await own.close();
      }
    });

    it('replace hands the source documents, tombstones and indexes to the target, through handles already held', async () => {
      const target = uniqueName('t');
      const source = uniqueName('s');
      const live = store.collection<Row>(target, ['user']);
      await live.apply('old', pos(1), set({ user: 'u', at: 'x', n: 1 }));
      await live.apply('kept', pos(2), set({ user: 'u', at: 'x', n: 2 }));
      const rebuilt = store.collection<Row>(source, ['user']);
      await rebuilt.apply('kept', pos(2), set({ user: 'u', at: 'x', n: 20 }));
      await rebuilt.apply('new', pos(3), set({ user: 'v', at: 'y', n: 3 }));
      await rebuilt.apply('gone', pos(4), set({ user: 'u', at: 'x', n: 4 }));
      await rebuilt.apply('gone', pos(5), () => null);

      await store.replace(target, source);

      expect(await live.get('old')).toBeNull();
      expect(await live.get('kept')).toEqual({ id: 'kept', doc: { user: 'u', at: 'x', n: 20 }, position: pos(2) });
      expect((await live.find({ where: { user: 'v' } })).map((d) => d.n)).toEqual([3]);
      expect(await live.count({})).toBe(2);
      // The tombstone came along: an older replayed event does not bring the document back.
      expect(await live.apply('gone', pos(4), set({ user: 'u', at: 'x', n: 4 }))).toBe('duplicate');
      expect(await live.apply('new', pos(6), (current) => ({ ...current!, n: 30 }))).toBe('applied');
      expect((await store.collection<Row>(target).get('new'))?.doc.n).toBe(30);
      // The source is gone: naming it again gives an empty collection.
      expect(await store.collection<Row>(source).count({})).toBe(0);
    });

    it('replace carries hundreds of documents over hundreds already there (a batch size FerretDB stalls on)', async () => {
      const target = uniqueName('t');
      const source = uniqueName('s');
      const live = store.collection<Row>(target, ['user']);
      const rebuilt = store.collection<Row>(source, ['user']);
      for (let i = 0; i < 240; i++) await live.apply(`d${i}`, pos(i + 1), set({ user: 'old', at: 'x', n: i }));
      for (let i = 40; i < 280; i++) await rebuilt.apply(`d${i}`, pos(i + 1), set({ user: 'new', at: 'x', n: i }));
      await store.replace(target, source);
      expect(await live.count({})).toBe(240);
      expect(await live.count({ where: { user: 'new' } })).toBe(240);
      expect(await live.get('d0')).toBeNull();
      expect((await live.get('d279'))?.doc.n).toBe(279);
    });

    it('replace with a source never written empties the target; drop removes a collection', async () => {
      const target = uniqueName('t');
      const live = store.collection<Row>(target);
      await live.apply('a', pos(1), set({ user: 'u', at: 'x', n: 1 }));
      await store.replace(target, uniqueName('never'));
      expect(await live.count({})).toBe(0);

      const doomed = uniqueName('d');
      await store.collection<Row>(doomed, ['user']).apply('a', pos(1), set({ user: 'u', at: 'x', n: 1 }));
      await store.drop(doomed);
      await store.drop(uniqueName('absent'));
      const again = store.collection<Row>(doomed, ['user']);
      expect(await again.count({})).toBe(0);
      expect(await again.apply('a', pos(1), set({ user: 'u', at: 'x', n: 2 }))).toBe('applied');
      expect((await again.find({ where: { user: 'u' } })).map((d) => d.n)).toEqual([2]);
    });

    it('entry shows a tombstone with its position, and null for an id never written', async () => {
      const rows = fresh<Row>();
      expect(await rows.entry('a')).toBeNull();
      await rows.apply('a', pos(1), set({ user: 'u', at: 'x', n: 1 }));
      expect(await rows.entry('a')).toEqual({ doc: { user: 'u', at: 'x', n: 1 }, position: pos(1) });
      await rows.apply('a', pos(2), () => null);
      expect(await rows.entry('a')).toEqual({ doc: null, position: pos(2) });
    });

    it('commit writes a batch of documents and moves the checkpoint; a stale previous checkpoint writes nothing', async () => {
      const [one, two] = [uniqueName('c'), uniqueName('c')];
      const runner = uniqueName('runner');
      expect(await store.checkpoint(runner)).toBeNull();
      const writes = [
        { collection: one, id: 'a', doc: { user: 'u', at: 'x', n: 1 }, position: pos(3) },
        { collection: two, id: 'b', doc: { user: 'v', at: 'y', n: 2 }, position: pos(4) },
      ];
      expect(await store.commit(writes, { name: runner, next: pos(4), previous: null })).toBe('ok');
      expect(await store.checkpoint(runner)).toEqual(pos(4));
      expect((await store.collection<Row>(one).get('a'))?.doc.n).toBe(1);
      expect((await store.collection<Row>(two, ['user']).find({ where: { user: 'v' } })).map((d) => d.n)).toEqual([2]);

      const stale = [{ collection: one, id: 'c', doc: { user: 'u', at: 'x', n: 9 }, position: pos(5) }];
      expect(await store.commit(stale, { name: runner, next: pos(5), previous: null })).toBe('mismatch');
      expect(await store.collection<Row>(one).get('c')).toBeNull();
      expect(await store.checkpoint(runner)).toEqual(pos(4));
    });

    it('commit guards each write by its position and deletes with a tombstone', async () => {
      const rows = uniqueName('c');
      const runner = uniqueName('runner');
      await store.collection<Row>(rows).apply('a', pos(10), set({ user: 'u', at: 'x', n: 1 }));
      const writes = [
        { collection: rows, id: 'a', doc: { user: 'u', at: 'x', n: 2 }, position: pos(9) },
        { collection: rows, id: 'b', doc: { user: 'u', at: 'x', n: 3 }, position: pos(11) },
        { collection: rows, id: 'b', doc: null, position: pos(12) },
      ];
      expect(await store.commit(writes, { name: runner, next: pos(12), previous: null })).toBe('ok');
      expect((await store.collection<Row>(rows).get('a'))?.doc.n).toBe(1);
      expect(await store.collection<Row>(rows).entry('b')).toEqual({ doc: null, position: pos(12) });
    });

    it('applying events with duplicates delivered anywhere after their original equals applying each once', async () => {
      type Op = { id: string; add: number } | { id: string; remove: true };
      const op = fc.oneof(
        fc.record({ id: fc.constantFrom('a', 'b', 'c'), add: fc.integer({ min: 1, max: 9 }) }),
        fc.record({ id: fc.constantFrom('a', 'b', 'c'), remove: fc.constant(true as const) }),
      );
      // Each event gets a later position than the previous one; `sameCommit` exercises the prepare tiebreak.
      const event = fc.record({ op, sameCommit: fc.boolean(), redeliverAfter: fc.nat({ max: 6 }) });
      await fc.assert(
        fc.asyncProperty(fc.array(event, { maxLength: 25 }), async (events) => {
          let commit = 0;
          let prepare = 0;
          const positioned = events.map((e) => {
            if (e.sameCommit && commit > 0) {
              prepare += 1;
            } else {
              commit += 2;
              prepare = commit - 1;
            }
            return { ...e, position: pos(commit, prepare) };
          });
          const once = fresh<{ sum: number }>();
          const twice = fresh<{ sum: number }>();
          const update = (o: Op) => (current: { sum: number } | null) => ('remove' in o ? null : { sum: (current?.sum ?? 0) + o.add });
          for (const e of positioned) await once.apply(e.op.id, e.position, update(e.op));
          const delivery: typeof positioned = [];
          const late = new Map<number, typeof positioned>();
          positioned.forEach((e, i) => {
            const at = i + e.redeliverAfter;
            late.set(at, [...(late.get(at) ?? []), e]);
            delivery.push(e, ...(late.get(i) ?? []));
          });
          for (const [at, rest] of late) if (at >= positioned.length) delivery.push(...rest);
          for (const e of delivery) await twice.apply(e.op.id, e.position, update(e.op));
          for (const id of ['a', 'b', 'c']) expect(await twice.get(id)).toEqual(await once.get(id));
        }),
        { numRuns: 40 },
      );
    });
  });
}

export function checkpointStoreContract(name: string, open: () => Promise<CheckpointStore>): void {
  describe(`CheckpointStore contract: ${name}`, () => {
    let store: CheckpointStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      await store.close();
    });

    it('loads null for an unknown name', async () => {
      expect(await store.load(uniqueName('p'))).toBeNull();
    });

    it('stores when the previous checkpoint matches and loads it back', async () => {
      const name = uniqueName('p');
      expect(await store.store(name, pos(10, 9), null)).toBe('ok');
      expect(await store.load(name)).toEqual(pos(10, 9));
      expect(await store.store(name, pos(20), pos(10, 9))).toBe('ok');
      expect(await store.load(name)).toEqual(pos(20));
    });

    it('refuses a store whose previous checkpoint does not match', async () => {
      const name = uniqueName('p');
      expect(await store.store(name, pos(5), pos(1))).toBe('mismatch');
      expect(await store.load(name)).toBeNull();
      await store.store(name, pos(10, 9), null);
      expect(await store.store(name, pos(11), null)).toBe('mismatch');
      expect(await store.store(name, pos(11), pos(10, 8))).toBe('mismatch');
      expect(await store.store(name, pos(11), pos(9, 9))).toBe('mismatch');
      expect(await store.load(name)).toEqual(pos(10, 9));
    });

    it('lets exactly one of two competing runners win', async () => {
      const name = uniqueName('p');
      const results = await Promise.all([store.store(name, pos(1), null), store.store(name, pos(2), null)]);
      expect([...results].sort()).toEqual(['mismatch', 'ok']);
    });

    it('keeps names independent', async () => {
      const [one, two] = [uniqueName('p'), uniqueName('p')];
      await store.store(one, pos(1), null);
      expect(await store.load(two)).toBeNull();
      expect(await store.store(two, pos(7), null)).toBe('ok');
      expect(await store.load(one)).toEqual(pos(1));
    });
  });
}
