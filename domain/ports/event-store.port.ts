/**
 * The event store port, with EventStoreDB semantics so that the embedded file log and EventStoreDB pass
 * one contract suite without knobs:
 * - stream revisions start at 0n; -1n means "no stream";
 * - expected revision: 'any' | 'no_stream' | 'stream_exists' | bigint (the revision of the last event);
 * - a mismatch rejects with a `wrong_expected_version` ServiceError carrying the actual revision;
 * - re-appending events whose ids are already at the expected positions succeeds and writes nothing
 *   (idempotent retries with deterministic event ids);
 * - `$all` positions `{ commit, prepare }` are strictly increasing but not contiguous;
 * - `read` is inclusive of `fromRevision`; `subscribeToAll` is exclusive of its `from` position and
 *   yields a `caughtUp` marker once the backlog is delivered, then live events;
 * - a filtered subscription also yields `checkpoint` deliveries (EventStoreDB's checkpointReached): how far
 *   it has read past events its filter passed over, so that a consumer's own checkpoint moves on although
 *   none of the recent events is its own.
 */

export type Revision = bigint;
export const NO_STREAM_REVISION: Revision = -1n;

export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | Revision;

export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export interface EventMetadata {
  readonly correlationId: string;
  readonly causationId?: string;
  /** ISO 8601 UTC time at which the command that produced the event was decided. */
  readonly occurredAt: string;
  readonly schemaVersion: number;
}

/** An event to append. `id` is a UUID; derive it deterministically (Ids.eventId) for idempotent retries. */
export interface EventData<Type extends string = string, Data = unknown> {
  readonly id: string;
  readonly type: Type;
  readonly data: Data;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> extends EventData<Type, Data> {
  readonly streamId: string;
  readonly revision: Revision;
  readonly position: Position;
  readonly created: Date;
}

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  readonly nextExpectedRevision: Revision;
  /** Position of the last event written (or already present, for an idempotent retry). */
  readonly position: Position;
}

export interface ReadStreamOptions {
  /** Inclusive. Defaults to the start (forwards) or the end (backwards). */
  readonly fromRevision?: Revision;
  readonly direction?: 'forwards' | 'backwards';
  readonly maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive. Defaults to 'start'. */
  readonly after?: 'start' | Position;
  readonly maxCount?: number;
}

/**
 * Which events a subscription delivers, decided by the store (on EventStoreDB, by the server): an event
 * whose stream starts with one of `streamPrefixes` and whose type starts with one of `typePrefixes`
 * (a missing list lets every event through).
 */
export interface SubscriptionFilter {
  readonly streamPrefixes?: readonly string[];
  readonly typePrefixes?: readonly string[];
}

/**
 * - `event`: an event that passed the filter;
 * - `checkpoint` (filtered subscriptions only): every event up to `position` has been read and the ones
 *   that passed the filter delivered. A subscription resumed `from` it misses and repeats nothing. Yielded
 *   when events were passed over since the last delivery: at the latest before `caughtUp`; live, the embedded
 *   store yields one within CHECKPOINT_DELAY_MS of an append the filter passes over, PostgreSQL with the page
 *   that held it, EventStoreDB none yet (its server's checkpointReached is not wired);
 * - `caughtUp`: the backlog up to `position` (the head when the subscription started) is delivered.
 */
export type SubscriptionDelivery =
  | { readonly kind: 'event'; readonly event: RecordedEvent }
  | { readonly kind: 'checkpoint'; readonly position: Position }
  | { readonly kind: 'caughtUp'; readonly position: Position | null };

export interface SubscribeToAllOptions {
  /** Exclusive: the first event delivered comes after this position. */
  readonly from: 'start' | 'end' | Position;
  readonly filter?: SubscriptionFilter;
  /** Ends the iteration (the iterator returns) when aborted. */
  readonly signal?: AbortSignal;
}

export interface EventStore {
  append(stream: string, events: readonly EventData[], options: { expected: ExpectedRevision }): Promise<AppendResult>;
  /** A missing stream yields nothing. */
  read(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent>;
  /** Revision of the stream's last event, or -1n when the stream does not exist. */
  streamRevision(stream: string): Promise<Revision>;
  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent>;
  /** Position of the last event in `$all`, or null when the store is empty. */
  headPosition(): Promise<Position | null>;
  subscribeToAll(options: SubscribeToAllOptions): AsyncIterable<SubscriptionDelivery>;
  close(): Promise<void>;
}

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function matchesFilter(event: Pick<RecordedEvent, 'streamId' | 'type'>, filter?: SubscriptionFilter): boolean {
  if (!filter) return true;
  if (filter.streamPrefixes && !filter.streamPrefixes.some((p) => event.streamId.startsWith(p))) return false;
  if (filter.typePrefixes && !filter.typePrefixes.some((p) => event.type.startsWith(p))) return false;
  return true;
}
