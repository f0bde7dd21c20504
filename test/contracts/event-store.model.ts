import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  comparePositions,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type RecordedEvent,
  type Revision,
} from '../../domain/ports/event-store.port.js';

/**
 * A model of the event store for fast-check's model-based testing: streams are plain arrays of ids, and the
 * append rule is restated as simply as possible (docs/ARCHITECTURE.md#the-event-stores-append-rule).
 */

interface ModelEvent {
  readonly id: string;
  /** Known for the last event of each append (from its AppendResult). */
  position?: Position;
}

export interface StoreModel {
  readonly streams: readonly string[];
  readonly byStream: Map<string, ModelEvent[]>;
  /** Written events in `$all` order. */
  readonly all: { readonly stream: string; readonly event: ModelEvent }[];
  /** Successful appends, replayed by retries. */
  readonly appends: { readonly stream: string; readonly expected: ExpectedRevision; readonly events: readonly EventData[] }[];
}

export interface StoreReal {
  readonly store: EventStore;
  /** `$all` position before the run: every event of the run comes after it. */
  readonly anchor: 'start' | Position;
}

export function newModel(streams: readonly string[]): StoreModel {
  return { streams, byStream: new Map(streams.map((s) => [s, []])), all: [], appends: [] };
}

type Prediction =
  | { readonly kind: 'write' }
  | { readonly kind: 'duplicate'; readonly lastRevision: Revision }
  | { readonly kind: 'conflict'; readonly actual: Revision };

function predict(events: readonly ModelEvent[], ids: readonly string[], expected: ExpectedRevision): Prediction {
  const current = BigInt(events.length) - 1n;
  if (expected === 'any' || expected === 'stream_exists') {
    if (expected === 'stream_exists' && events.length === 0) return { kind: 'conflict', actual: current };
    const found = ids.map((id) => events.map((event) => event.id).lastIndexOf(id));
    if (found.every((i) => i < 0)) return { kind: 'write' };
    // Retries reuse the ids of a whole earlier append, and appends are atomic: ids are all there or none.
    if (!found.every((i) => i >= 0)) throw new Error('model: partial id overlap is never generated');
    return { kind: 'duplicate', lastRevision: BigInt(found[found.length - 1]!) };
  }
  const revision = expected === 'no_stream' ? -1n : expected;
  if (revision === current) return { kind: 'write' };
  if (revision > current) return { kind: 'conflict', actual: current };
  const retried = ids.every((id, i) => events[Number(revision) + 1 + i]?.id === id);
  return retried ? { kind: 'duplicate', lastRevision: revision + BigInt(ids.length) } : { kind: 'conflict', actual: current };
}

type ExpectedSpec = 'any' | 'no_stream' | 'stream_exists' | { readonly delta: number };

class AppendCommand implements fc.AsyncCommand<StoreModel, StoreReal> {
  constructor(
    readonly streamIndex: number,
    readonly expectedSpec: ExpectedSpec,
    readonly count: number,
    /** Re-send the events of an earlier successful append; `exact` also re-sends its stream and expectation. */
    readonly retry: { readonly of: number; readonly exact: boolean } | null,
  ) {}

  check(): boolean {
    return true;
  }

  async run(model: StoreModel, real: StoreReal): Promise<void> {
    const original = this.retry && model.appends.length > 0 ? model.appends[this.retry.of % model.appends.length] : undefined;
    const exact = original !== undefined && this.retry?.exact === true;
    const stream = exact ? original.stream : model.streams[this.streamIndex % model.streams.length]!;
    const list = model.byStream.get(stream)!;
    const current = BigInt(list.length) - 1n;
    const spec = this.expectedSpec;
    const expected: ExpectedRevision = exact
      ? original.expected
      : typeof spec === 'string'
        ? spec
        : maxRevision(-1n, current + BigInt(spec.delta));
    const events = original?.events ?? Array.from({ length: this.count }, (_, i) => modelEvent(i));
    const ids = events.map((event) => event.id);

    const prediction = predict(list, ids, expected);
    const outcome = await real.store.append(stream, events, { expected }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    if (prediction.kind === 'conflict') {
      expect(outcome).toMatchObject({ error: { code: 'wrong_expected_version', details: { actual: prediction.actual } } });
      return;
    }
    if (!('result' in outcome)) throw outcome.error;
    const { result } = outcome;
    if (prediction.kind === 'write') {
      expect(result.nextExpectedRevision).toBe(current + BigInt(events.length));
      const previous = [...model.all].reverse().find((entry) => entry.event.position)?.event.position;
      if (previous) expect(comparePositions(result.position, previous)).toBe(1);
      const written = ids.map((id): ModelEvent => ({ id }));
      written[written.length - 1]!.position = result.position;
      list.push(...written);
      model.all.push(...written.map((event) => ({ stream, event })));
    } else {
      expect(result.nextExpectedRevision).toBe(prediction.lastRevision);
      const known = list[Number(prediction.lastRevision)]?.position;
      if (known) expect(result.position).toEqual(known);
    }
    model.appends.push({ stream, expected, events });
  }

  toString(): string {
    const retry = this.retry ? `, retry ${this.retry.exact ? 'exactly ' : ''}#${this.retry.of}` : '';
    return `Append(stream ${this.streamIndex}, ${JSON.stringify(this.expectedSpec)}, ${this.count} events${retry})`;
  }
}

class ReadStreamCommand implements fc.AsyncCommand<StoreModel, StoreReal> {
  constructor(
    readonly streamIndex: number,
    readonly direction: 'forwards' | 'backwards',
    readonly from: number | null,
    readonly maxCount: number | null,
  ) {}

  check(): boolean {
    return true;
  }

  async run(model: StoreModel, real: StoreReal): Promise<void> {
    const stream = model.streams[this.streamIndex % model.streams.length]!;
    const list = model.byStream.get(stream)!;
    const last = list.length - 1;
    // Backwards reads start at most at the last event: beyond it the port leaves the behaviour open.
    const from = this.from === null ? undefined : this.direction === 'backwards' ? Math.max(0, Math.min(this.from, last)) : this.from;
    const revisions = last < 0 ? [] : this.direction === 'forwards' ? range(from ?? 0, last, 1) : range(from ?? last, 0, -1);
    const expected = revisions.slice(0, this.maxCount ?? undefined).map((revision) => ({
      streamId: stream,
      revision: BigInt(revision),
      id: list[revision]!.id,
    }));

    const options = {
      direction: this.direction,
      ...(from === undefined ? {} : { fromRevision: BigInt(from) }),
      ...(this.maxCount === null ? {} : { maxCount: this.maxCount }),
    };
    const actual: RecordedEvent[] = [];
    for await (const event of real.store.read(stream, options)) actual.push(event);
    expect(actual.map(({ streamId, revision, id }) => ({ streamId, revision, id }))).toEqual(expected);
    actual.forEach((event) => {
      const known = list[Number(event.revision)]?.position;
      if (known) expect(event.position).toEqual(known);
    });
    expect(await real.store.streamRevision(stream)).toBe(BigInt(last));
  }

  toString(): string {
    return `ReadStream(stream ${this.streamIndex}, ${this.direction}, from ${this.from}, max ${this.maxCount})`;
  }
}

class ReadAllTailCommand implements fc.AsyncCommand<StoreModel, StoreReal> {
  constructor(readonly back: number) {}

  check(): boolean {
    return true;
  }

  async run(model: StoreModel, real: StoreReal): Promise<void> {
    const known = model.all.flatMap((entry, index) => (entry.event.position ? [{ index, position: entry.event.position }] : []));
    const start = known.length === 0 ? undefined : known[known.length - 1 - (this.back % known.length)]!;
    const expected = model.all.slice(start ? start.index + 1 : 0).map(({ stream, event }) => ({ streamId: stream, id: event.id }));

    const actual: RecordedEvent[] = [];
    for await (const event of real.store.readAll({ after: start?.position ?? real.anchor })) {
      if (model.streams.includes(event.streamId)) actual.push(event);
    }
    expect(actual.map(({ streamId, id }) => ({ streamId, id }))).toEqual(expected);
    actual.slice(1).forEach((event, i) => expect(comparePositions(actual[i]!.position, event.position)).toBe(-1));
  }

  toString(): string {
    return `ReadAllTail(back ${this.back})`;
  }
}

export function storeCommands() {
  // Mostly the right revision, so streams grow; stale and future ones to provoke conflicts and retries.
  const expectedSpec: fc.Arbitrary<ExpectedSpec> = fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom<ExpectedSpec>('any', 'no_stream', 'stream_exists') },
    { weight: 4, arbitrary: fc.constant({ delta: 0 }) },
    { weight: 2, arbitrary: fc.constantFrom(-2, -1, 1).map((delta) => ({ delta })) },
  );
  const retry = fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.record({ of: fc.nat(), exact: fc.boolean() }) },
  );
  return fc.commands(
    [
      fc
        .tuple(fc.nat(2), expectedSpec, fc.integer({ min: 1, max: 3 }), retry)
        .map(([stream, expected, count, again]) => new AppendCommand(stream, expected, count, again)),
      fc
        .tuple(
          fc.nat(2),
          fc.constantFrom('forwards' as const, 'backwards' as const),
          fc.option(fc.nat(5)),
          fc.option(fc.integer({ min: 1, max: 4 })),
        )
        .map(([stream, direction, from, maxCount]) => new ReadStreamCommand(stream, direction, from, maxCount)),
      fc.nat(3).map((back) => new ReadAllTailCommand(back)),
    ],
    { maxCommands: 40, size: 'max' },
  );
}

function modelEvent(index: number): EventData {
  return {
    id: randomUUID(),
    type: 'ModelTested',
    data: { index },
    metadata: { correlationId: randomUUID(), occurredAt: new Date(0).toISOString(), schemaVersion: 1 },
  };
}

function maxRevision(a: Revision, b: Revision): Revision {
  return a > b ? a : b;
}

/** Inclusive integer range from `from` towards `to`. */
function range(from: number, to: number, step: 1 | -1): number[] {
  const out: number[] = [];
  for (let i = from; step === 1 ? i <= to : i >= to; i += step) out.push(i);
  return out;
}
