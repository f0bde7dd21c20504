import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  comparePositions,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type ReadStreamOptions,
  type SubscribeToAllOptions,
  type SubscriptionDelivery,
} from '../../domain/ports/event-store.port.js';
import { newModel, storeCommands } from './event-store.model.js';

/**
 * The EventStore contract, written against the port only: every adapter (embedded file log, EventStoreDB)
 * runs this very suite. Streams get random names so it can share a server with other runs, and `$all`
 * checks only look at the test's own streams after a position taken before the test wrote anything.
 */
export function eventStoreContract(name: string, open: () => Promise<EventStore>): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    const append = (stream: string, events: readonly EventData[], expected: ExpectedRevision = 'any') =>
      store.append(stream, events, { expected });
    const read = (stream: string, options?: ReadStreamOptions) => collect(store.read(stream, options));
    const anchor = async () => (await store.headPosition()) ?? ('start' as const);

    describe('append and read', () => {
      it('numbers revisions from 0 and returns the last revision written', async () => {
        const stream = streamName('rev');
        const first = await append(stream, [event('Opened', { n: 0 })], 'no_stream');
        expect(first.nextExpectedRevision).toBe(0n);
        const second = await append(stream, [event('Moved', { n: 1 }), event('Moved', { n: 2 })], 0n);
        expect(second.nextExpectedRevision).toBe(2n);
        expect(await store.streamRevision(stream)).toBe(2n);
        const events = await read(stream);
        expect(events.map((e) => [e.revision, e.type, e.data])).toEqual([
          [0n, 'Opened', { n: 0 }],
          [1n, 'Moved', { n: 1 }],
          [2n, 'Moved', { n: 2 }],
        ]);
        expect(events.every((e) => e.streamId === stream && e.created instanceof Date)).toBe(true);
        expect(events[2]!.position).toEqual(second.position);
      });

      it('keeps ids and metadata as given, with and without causationId', async () => {
        const stream = streamName('meta');
        const withCause = event('Caused', { nested: { list: [1, 'two', null], flag: true } });
        const caused: EventData = { ...withCause, metadata: { ...withCause.metadata, causationId: randomUUID() } };
        const plain = event('Plain', 'a string payload');
        await append(stream, [caused, plain]);
        const [a, b] = await read(stream);
        expect(a).toMatchObject({ id: caused.id, type: caused.type, data: caused.data, metadata: caused.metadata });
        expect(b).toMatchObject({ id: plain.id, data: 'a string payload', metadata: plain.metadata });
        expect(b!.metadata).not.toHaveProperty('causationId');
      });

      it('reads a missing stream as empty, revision -1n', async () => {
        const stream = streamName('missing');
        expect(await read(stream)).toEqual([]);
        expect(await read(stream, { direction: 'backwards' })).toEqual([]);
        expect(await store.streamRevision(stream)).toBe(-1n);
      });

      it('rejects event types starting with $ and writes nothing', async () => {
        const stream = streamName('reserved');
        await expect(append(stream, [event('$system')])).rejects.toMatchObject({ code: 'bad_request' });
        await expect(append(stream, [event('Fine'), event('$metadata')])).rejects.toMatchObject({ code: 'bad_request' });
        expect(await store.streamRevision(stream)).toBe(-1n);
      });
    });

    describe('expected revision', () => {
      it("'no_stream' (and -1n) only creates a stream", async () => {
        const stream = streamName('nostream');
        await append(stream, [event()], 'no_stream');
        await expectConflict(append(stream, [event()], 'no_stream'), stream, 0n);
        await expectConflict(append(stream, [event()], -1n), stream, 0n);
        const other = streamName('minus-one');
        expect((await append(other, [event()], -1n)).nextExpectedRevision).toBe(0n);
      });

      it("'stream_exists' needs the stream", async () => {
        const stream = streamName('exists');
        await expectConflict(append(stream, [event()], 'stream_exists'), stream, -1n);
        await append(stream, [event()], 'no_stream');
        expect((await append(stream, [event()], 'stream_exists')).nextExpectedRevision).toBe(1n);
      });

      it("'any' always writes new events", async () => {
        const stream = streamName('any');
        expect((await append(stream, [event()], 'any')).nextExpectedRevision).toBe(0n);
        expect((await append(stream, [event(), event()], 'any')).nextExpectedRevision).toBe(2n);
      });

      it('a revision must be the last revision; a conflict carries the actual one', async () => {
        const stream = streamName('exact');
        await expectConflict(append(stream, [event()], 0n), stream, -1n);
        await append(stream, [event(), event()], 'no_stream');
        await expectConflict(append(stream, [event()], 5n), stream, 1n);
        await expectConflict(append(stream, [event()], 0n), stream, 1n);
        expect((await append(stream, [event()], 1n)).nextExpectedRevision).toBe(2n);
        await expect(append(stream, [event()], 0n)).rejects.toMatchObject({
          code: 'wrong_expected_version',
          details: { stream, expected: 0n, actual: 2n },
        });
      });

      it('lets exactly one of several concurrent appends with the same expectation win', async () => {
        const stream = streamName('race');
        await append(stream, [event()], 'no_stream');
        const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => append(stream, [event()], 0n)));
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
          expect(outcome.reason).toMatchObject({ code: 'wrong_expected_version', details: { actual: 1n } });
        }
        expect(await store.streamRevision(stream)).toBe(1n);
      });
    });

    describe('idempotent retries by event id', () => {
      it('re-appending the same events with the same expectation writes nothing and returns the original result', async () => {
        const stream = streamName('retry');
        const created = [event(), event()];
        const original = await append(stream, created, 'no_stream');
        const next = [event(), event()];
        const second = await append(stream, next, 1n);
        expect(await append(stream, created, 'no_stream')).toEqual(original);
        expect(await append(stream, next, 1n)).toEqual(second);
        expect(await append(stream, created, -1n)).toEqual(original);
        expect((await read(stream)).map((e) => e.id)).toEqual([...created, ...next].map((e) => e.id));
      });

      it('a stale expectation with other ids, shifted ids or extra events is a conflict', async () => {
        const stream = streamName('stale');
        const [a, b, c] = [event(), event(), event()];
        await append(stream, [a, b], 'no_stream');
        await append(stream, [c], 1n);
        await expectConflict(append(stream, [event()], 0n), stream, 2n);
        await expectConflict(append(stream, [b], -1n), stream, 2n);
        await expectConflict(append(stream, [a, event()], -1n), stream, 2n);
        await expectConflict(append(stream, [c, event()], 1n), stream, 2n);
        expect(await store.streamRevision(stream)).toBe(2n);
      });

      it("with 'any' or 'stream_exists', events already in the stream are not written again", async () => {
        const stream = streamName('retry-any');
        const batch = [event(), event()];
        const original = await append(stream, batch, 'any');
        const later = [event()];
        const laterResult = await append(stream, later, 'stream_exists');
        await append(stream, [event()], 'any');
        expect(await append(stream, batch, 'any')).toEqual(original);
        expect(await append(stream, later, 'stream_exists')).toEqual(laterResult);
        expect(await store.streamRevision(stream)).toBe(3n);
      });

      it("with 'any', a retry whose first event is stored but a later one is new is a conflict", async () => {
        const stream = streamName('retry-any-partial');
        const [a, b] = [event(), event()];
        await append(stream, [a, b], 'any');
        await expectConflict(append(stream, [a, event()], 'any'), stream, 1n);
        expect(await store.streamRevision(stream)).toBe(1n);
      });
    });

    describe('multi-event appends', () => {
      it('are contiguous in the stream and in $all, with strictly increasing positions', async () => {
        const stream = streamName('batch');
        const from = await anchor();
        const result = await append(stream, [event('A'), event('B'), event('C')], 'no_stream');
        const events = await read(stream);
        expect(events.map((e) => e.revision)).toEqual([0n, 1n, 2n]);
        expectIncreasing(events.map((e) => e.position));
        expect(events[2]!.position).toEqual(result.position);
        const afterFirst = await collect(store.readAll({ after: events[0]!.position, maxCount: 2 }));
        expect(afterFirst.map((e) => e.id)).toEqual([events[1]!.id, events[2]!.id]);
        const all = (await collect(store.readAll({ after: from }))).filter((e) => e.streamId === stream);
        expect(all.map((e) => e.id)).toEqual(events.map((e) => e.id));
      });

      it('are written entirely or not at all', async () => {
        const stream = streamName('atomic');
        await append(stream, [event()], 'no_stream');
        await expectConflict(append(stream, [event(), event(), event()], 'no_stream'), stream, 0n);
        await expect(append(stream, [event(), event('$bad'), event()], 0n)).rejects.toMatchObject({ code: 'bad_request' });
        expect(await store.streamRevision(stream)).toBe(0n);
      });
    });

    describe('read a stream', () => {
      const stream8 = async () => {
        const stream = streamName('read');
        await append(
          stream,
          Array.from({ length: 8 }, (_, n) => event('Counted', { n })),
          'no_stream',
        );
        return stream;
      };
      const revisions = async (stream: string, options: ReadStreamOptions) => (await read(stream, options)).map((e) => e.revision);

      it('is inclusive of fromRevision, forwards and backwards', async () => {
        const stream = await stream8();
        expect(await revisions(stream, { fromRevision: 1n })).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n]);
        expect(await revisions(stream, { direction: 'backwards' })).toEqual([7n, 6n, 5n, 4n, 3n, 2n, 1n, 0n]);
        expect(await revisions(stream, { direction: 'backwards', fromRevision: 3n })).toEqual([3n, 2n, 1n, 0n]);
        expect(await revisions(stream, { fromRevision: 8n })).toEqual([]);
      });

      it('stops at maxCount', async () => {
        const stream = await stream8();
        expect(await revisions(stream, { maxCount: 3 })).toEqual([0n, 1n, 2n]);
        expect(await revisions(stream, { fromRevision: 6n, maxCount: 3 })).toEqual([6n, 7n]);
        expect(await revisions(stream, { direction: 'backwards', maxCount: 1 })).toEqual([7n]);
        expect(await revisions(stream, { direction: 'backwards', fromRevision: 4n, maxCount: 2 })).toEqual([4n, 3n]);
      });
    });

    describe('$all', () => {
      it('readAll is exclusive of `after` and positions strictly increase across streams', async () => {
        const [s1, s2] = [streamName('all-a'), streamName('all-b')];
        const from = await anchor();
        const results = [];
        for (const stream of [s1, s2, s1, s2]) results.push(await append(stream, [event()]));
        expectIncreasing(results.map((r) => r.position));
        const ours = (e: { streamId: string }) => e.streamId === s1 || e.streamId === s2;
        const all = (await collect(store.readAll({ after: from }))).filter(ours);
        expect(all.map((e) => e.position)).toEqual(results.map((r) => r.position));
        const afterSecond = (await collect(store.readAll({ after: results[1]!.position }))).filter(ours);
        expect(afterSecond.map((e) => e.position)).toEqual(results.slice(2).map((r) => r.position));
        const head = await store.headPosition();
        expect(head && comparePositions(head, results[3]!.position)).toBeGreaterThanOrEqual(0);
      });
    });

    describe('subscribeToAll', () => {
      const subscribe = (options: SubscribeToAllOptions) => store.subscribeToAll(options)[Symbol.asyncIterator]();
      const ids = (deliveries: readonly SubscriptionDelivery[]) => deliveries.map((d) => (d.kind === 'event' ? d.event.id : d.kind));

      it('delivers the backlog, then caughtUp, then live events, and ends on abort', async () => {
        const stream = streamName('sub');
        const from = await anchor();
        const [a, b, c] = [event(), event(), event()];
        await append(stream, [a, b]);
        const abort = new AbortController();
        const sub = subscribe({ from, filter: { streamPrefixes: [stream] }, signal: abort.signal });
        expect(ids(await take(sub, 3))).toEqual([a.id, b.id, 'caughtUp']);
        const live = sub.next();
        await append(stream, [c]);
        expect(ids([(await live).value])).toEqual([c.id]);
        const waiting = sub.next();
        abort.abort();
        expect((await waiting).done).toBe(true);
      });

      it('is exclusive of its `from` position', async () => {
        const stream = streamName('sub-from');
        const events = [event(), event(), event()];
        await append(stream, events.slice(0, 1));
        const second = await append(stream, events.slice(1));
        const [first] = await read(stream);
        const abort = new AbortController();
        const sub = subscribe({ from: first!.position, filter: { streamPrefixes: [stream] }, signal: abort.signal });
        expect(ids(await take(sub, 3))).toEqual([events[1]!.id, events[2]!.id, 'caughtUp']);
        const fromLast = subscribe({ from: second.position, filter: { streamPrefixes: [stream] }, signal: abort.signal });
        expect(ids(await take(fromLast, 1))).toEqual(['caughtUp']);
        abort.abort();
      });

      it("from 'end' delivers only what is appended afterwards", async () => {
        const stream = streamName('sub-end');
        await append(stream, [event()]);
        const abort = new AbortController();
        const sub = subscribe({ from: 'end', filter: { streamPrefixes: [stream] }, signal: abort.signal });
        expect(ids(await take(sub, 1))).toEqual(['caughtUp']);
        const later = event();
        const next = sub.next();
        await append(stream, [later]);
        expect(ids([(await next).value])).toEqual([later.id]);
        abort.abort();
      });

      it('filters by stream and event type prefixes', async () => {
        const prefix = streamName('sub-filter');
        const from = await anchor();
        const [x1, y1, x2, other] = [event('Alpha.one'), event('Beta.one'), event('Alpha.two'), event('Alpha.three')];
        await append(`${prefix}-x`, [x1, y1]);
        await append(`${prefix}-y`, [x2]);
        await append(streamName('sub-elsewhere'), [other]);
        const abort = new AbortController();
        const byStream = subscribe({ from, filter: { streamPrefixes: [`${prefix}-y`] }, signal: abort.signal });
        expect(ids(await take(byStream, 3))).toEqual([x2.id, 'checkpoint', 'caughtUp']);
        const byType = subscribe({ from, filter: { streamPrefixes: [prefix], typePrefixes: ['Alpha'] }, signal: abort.signal });
        expect(ids(await take(byType, 4))).toEqual([x1.id, x2.id, 'checkpoint', 'caughtUp']);
        abort.abort();
      });

      it('reports a checkpoint past the events its filter passes over, from which it resumes missing and repeating nothing', async () => {
        const mine = streamName('sub-mine');
        const others = streamName('sub-others');
        const from = await anchor();
        const [m1, m2, o1, o2] = [event(), event(), event(), event()];
        await append(others, [event()]);
        const m1At = await append(mine, [m1]);
        const lastOther = await append(others, [o1, o2]);
        const abort = new AbortController();
        const filter = { streamPrefixes: [mine] };
        const deliveries = await take(subscribe({ from, filter, signal: abort.signal }), 3);
        expect(ids(deliveries)).toEqual([m1.id, 'checkpoint', 'caughtUp']);
        const checkpoint = deliveries[1]?.kind === 'checkpoint' ? deliveries[1].position : null;
        expect(checkpoint).toEqual(lastOther.position);
        // The last event read was delivered: nothing to report.
        const othersOnly = subscribe({ from: m1At.position, filter: { streamPrefixes: [others] }, signal: abort.signal });
        expect(ids(await take(othersOnly, 3))).toEqual([o1.id, o2.id, 'caughtUp']);
        await append(mine, [m2]);
        const resumed = subscribe({ from: checkpoint!, filter, signal: abort.signal });
        expect(ids(await take(resumed, 2))).toEqual([m2.id, 'caughtUp']);
        abort.abort();
      });

      it('yields nothing when the signal is already aborted, and stops when the consumer breaks', async () => {
        const stream = streamName('sub-stop');
        const from = await anchor();
        await append(stream, [event(), event()]);
        const aborted = AbortSignal.abort();
        expect(await collect(store.subscribeToAll({ from, signal: aborted }))).toEqual([]);
        const seen: SubscriptionDelivery[] = [];
        for await (const delivery of store.subscribeToAll({ from, filter: { streamPrefixes: [stream] } })) {
          seen.push(delivery);
          if (delivery.kind === 'caughtUp') break;
        }
        expect(seen.map((d) => d.kind)).toEqual(['event', 'event', 'caughtUp']);
      });
    });

    it('behaves like a Map<stream, events[]> model under random appends and reads', async () => {
      await fc.assert(
        fc.asyncProperty(storeCommands(), async (commands) => {
          const run = randomUUID().replaceAll('-', '');
          const setup = async () => ({
            model: newModel(['a', 'b', 'c'].map((s) => `model-${run}-${s}`)),
            real: { store, anchor: await anchor() },
          });
          await fc.asyncModelRun(setup, commands);
        }),
        { numRuns: 60 },
      );
    });
  });
}

function streamName(purpose: string): string {
  return `contract-${purpose}-${randomUUID().replaceAll('-', '')}`;
}

function event(type = 'Tested', data: unknown = {}): EventData {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { correlationId: randomUUID(), occurredAt: '2024-05-01T12:00:00.000Z', schemaVersion: 1 },
  };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function take<T>(iterator: AsyncIterator<T>, count: number): Promise<T[]> {
  const out: T[] = [];
  while (out.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

async function expectConflict(append: Promise<unknown>, stream: string, actual: bigint): Promise<void> {
  await expect(append).rejects.toMatchObject({ code: 'wrong_expected_version', details: { stream, actual } });
}

function expectIncreasing(positions: readonly Position[]): void {
  positions.slice(1).forEach((position, i) => expect(comparePositions(positions[i]!, position)).toBe(-1));
}
