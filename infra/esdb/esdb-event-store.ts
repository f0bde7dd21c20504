import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  eventTypeFilter,
  excludeSystemEvents,
  streamNameFilter,
} from '@eventstore/db-client';
import type {
  AppendResult,
  EventData,
  EventStore,
  ExpectedRevision,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  Revision,
  SubscribeToAllOptions,
  SubscriptionDelivery,
} from '../../domain/ports/event-store.port.js';
import { NO_STREAM_REVISION, matchesFilter } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { requireReachable, splitHostPort } from '../external/tcp-probe.js';
import { isAfter, toConflict, toEventData, toExpected, toRecorded } from './esdb-mapping.js';

/**
 * The EventStore port on EventStoreDB (@eventstore/db-client 6). The port was written with ESDB semantics,
 * so most calls map one to one; the adapter adds:
 * - input checks before sending (reserved `$` types, ids), so a bad batch writes nothing;
 * - `$all` without the server's own events (`$`-types, `$`-streams, links), and `readAll` exclusive of `after`;
 * - `subscribeToAll` as backlog (readAll up to the head taken at subscribe time), then `caughtUp`, then a live
 *   subscription from that head: the `caughtUp` marker then does not depend on the server version (the
 *   client's own 'caughtUp' event needs 23.10+), and no event falls between the two phases;
 * - the position of an idempotent retry, which the server does not return, read back from the stream.
 */

export interface EsdbOptions {
  /** e.g. `esdb://127.0.0.1:2113?tls=false`. */
  readonly url: string;
  readonly connectTimeoutMs?: number;
}

export async function openEsdbEventStore(options: EsdbOptions): Promise<EventStore> {
  const timeout = options.connectTimeoutMs ?? 2000;
  const hosts = /^(?:esdb|esdb\+discover):\/\/(?:[^@/]*@)?([^/?]+)/.exec(options.url)?.[1];
  if (!hosts) throw fail('config_invalid', `ESDB_URL is not an esdb:// connection string: ${JSON.stringify(options.url)}`);
  await requireReachable(
    'EventStoreDB',
    hosts.split(',').map((h) => splitHostPort(h, 2113)),
    timeout,
  );
  const client = EventStoreDBClient.connectionString(options.url);
  try {
    for await (const _ of client.readAll({ maxCount: 1, direction: BACKWARDS, fromPosition: END, deadline: timeout * 5 })) break;
  } catch (error) {
    await client.dispose().catch(() => undefined);
    throw fail(
      'backend_unavailable',
      `EventStoreDB at ${hosts} does not answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return new EsdbEventStore(client);
}

class EsdbEventStore implements EventStore {
  constructor(private readonly client: EventStoreDBClient) {}

  async append(stream: string, events: readonly EventData[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    const data = toEventData(stream, events, options.expected);
    let result;
    try {
      result = await this.client.appendToStream(stream, data, { expectedRevision: toExpected(options.expected) });
    } catch (error) {
      throw toConflict(error, stream, options.expected);
    }
    // An idempotent retry comes back without a position (or with the server's "none", -1 as uint64).
    const reported = result.position && result.position.commit < 2n ** 63n ? result.position : undefined;
    const position = reported ?? (await this.positionOf(stream, result.nextExpectedRevision));
    return { nextExpectedRevision: result.nextExpectedRevision, position: { commit: position.commit, prepare: position.prepare } };
  }

  private async positionOf(stream: string, revision: Revision): Promise<Position> {
    for await (const event of this.read(stream, { fromRevision: revision, maxCount: 1 })) return event.position;
    throw fail('invalid_state', `event ${revision} of ${stream} not found after an append`);
  }

  async *read(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    const direction = options.direction ?? 'forwards';
    if (options.fromRevision !== undefined && options.fromRevision < 0n)
      throw fail('bad_request', `invalid fromRevision ${options.fromRevision}`);
    if (options.maxCount !== undefined && options.maxCount <= 0) return;
    try {
      const events = this.client.readStream(stream, {
        direction: direction === 'forwards' ? FORWARDS : BACKWARDS,
        fromRevision: options.fromRevision ?? (direction === 'forwards' ? START : END),
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
      });
      for await (const resolved of events) {
        const event = toRecorded(resolved);
        if (event) yield event;
      }
    } catch (error) {
      // The client reports a missing stream while iterating; the port reads it as empty.
      if (error instanceof StreamNotFoundError) return;
      throw error;
    }
  }

  async streamRevision(stream: string): Promise<Revision> {
    for await (const event of this.read(stream, { direction: 'backwards', maxCount: 1 })) return event.revision;
    return NO_STREAM_REVISION;
  }

  async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    const after = options.after ?? 'start';
    let left = options.maxCount ?? Number.POSITIVE_INFINITY;
    if (left <= 0) return;
    // The server's readAll is inclusive of its start position; the port's is exclusive.
    for await (const resolved of this.client.readAll({ direction: FORWARDS, fromPosition: after === 'start' ? START : after })) {
      const event = toRecorded(resolved);
      if (!event || (after !== 'start' && !isAfter(event.position, after))) continue;
      yield event;
      left -= 1;
      if (left <= 0) return;
    }
  }

  async headPosition(): Promise<Position | null> {
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END })) {
      const event = toRecorded(resolved);
      if (event) return event.position;
    }
    return null;
  }

  async *subscribeToAll(options: SubscribeToAllOptions): AsyncIterable<SubscriptionDelivery> {
    const { from, filter, signal } = options;
    if (signal?.aborted) return;
    const head = await this.headPosition();
    if (from !== 'end') {
      // The last event read, when the filter passed over it: where the backlog's checkpoint is.
      let passedOver: Position | null = null;
      for await (const event of this.readAll({ after: from })) {
        if (signal?.aborted) return;
        if (head === null || isAfter(event.position, head)) break;
        passedOver = matchesFilter(event, filter) ? null : event.position;
        if (passedOver === null) yield { kind: 'event', event };
      }
      if (filter && passedOver !== null) yield { kind: 'checkpoint', position: passedOver };
    }
    if (signal?.aborted) return;
    yield { kind: 'caughtUp', position: head };
    // Live, the server's checkpoints (checkpointReached) are not delivered yet: a consumer of this store
    // sees its position move only with its own events.

    const serverFilter = filter?.streamPrefixes
      ? streamNameFilter({ prefixes: [...filter.streamPrefixes] })
      : filter?.typePrefixes
        ? eventTypeFilter({ prefixes: [...filter.typePrefixes] })
        : excludeSystemEvents();
    const subscription = this.client.subscribeToAll({ fromPosition: head ?? START, filter: serverFilter });
    const stop = () => void subscription.unsubscribe().catch(() => undefined);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      for await (const resolved of subscription) {
        if (signal?.aborted) return;
        const event = toRecorded(resolved);
        if (event && (head === null || isAfter(event.position, head)) && matchesFilter(event, filter)) yield { kind: 'event', event };
      }
    } catch (error) {
      // Unsubscribing on abort may end the stream with a cancellation error: that is the end asked for.
      if (signal?.aborted) return;
      throw error;
    } finally {
      signal?.removeEventListener('abort', stop);
      stop();
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
