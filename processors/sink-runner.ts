import { eventRegistry } from '../domain/events/registry.js';
import type { EventStore, Position, RecordedEvent } from '../domain/ports/event-store.port.js';
import { familyOf, streamFamily } from '../domain/shared/streams.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import type { LogProgress } from './log-progress.js';
import { createPositionWaiters } from './position-waiters.js';
import type { ProjectionRunner } from './projection-runner.js';
import { replaySinkHistory, type EventSink } from './sink-history.js';

/**
 * Feeds in-process sinks (the intelligence index, the waits on streams, the running jobs' mirror) on the
 * thread that holds them while another runner folds the read models (the projection thread). It writes
 * nothing: it starts from that runner's checkpoint (what the read models, and their list of the sinks'
 * streams, were durable up to when it started), rebuilds the sinks with a history from their streams up
 * to it, then hands every later event to the sinks that handle it. A sink restored from a read model
 * (the running jobs) loads it before this starts, so the events replayed after the checkpoint are ones
 * it has seen or ones it applies idempotently. The subscription is filtered to the stream families the
 * sinks follow: the store passes over the others by their stream's name, never decoding them here (a
 * screen's charge, on the thread that answers the screen), and its checkpoints move `whenProcessed` on.
 */
export function createSinkRunner(deps: {
  store: EventStore;
  readStore: ReadStore;
  sinks: readonly EventSink[];
  /** The checkpoint of the runner that folds the read models. */
  checkpoint: string;
  onError?: (error: unknown, event: RecordedEvent, sink: string) => void;
}): ProjectionRunner {
  const waiters = createPositionWaiters();
  const abort = new AbortController();
  const handled = new Map<string, EventSink[]>();
  for (const sink of deps.sinks) for (const type of sink.handles) handled.set(type, [...(handled.get(type) ?? []), sink]);
  const families = new Set([...handled.keys()].flatMap((type) => eventRegistry.familiesOf(type)));
  let read = 0;
  let recordedAt: Date | null = null;
  let loop: Promise<void> | null = null;

  function feed(event: RecordedEvent) {
    if (!families.has(familyOf(event.streamId))) return;
    for (const sink of handled.get(event.type) ?? []) {
      try {
        sink.apply(event);
      } catch (error) {
        deps.onError?.(error, event, 'sinks');
      }
    }
  }

  async function run(from: Position | null) {
    // The store passes over the other families' appends (and wakes this loop only for a checkpoint, later).
    const filter = { streamPrefixes: [...families].map((family) => streamFamily(family).prefix) };
    for await (const delivery of deps.store.subscribeToAll({ from: from ?? 'start', filter, signal: abort.signal })) {
      if (delivery.kind === 'caughtUp') continue;
      if (delivery.kind === 'checkpoint') {
        waiters.advance(delivery.position);
        continue;
      }
      read += 1;
      feed(delivery.event);
      recordedAt = delivery.event.created;
      waiters.advance(delivery.event.position);
    }
  }

  return {
    async start() {
      const from = await deps.readStore.checkpoint(deps.checkpoint);
      if (from) {
        read += await replaySinkHistory(deps, deps.sinks, from);
        waiters.advance(from);
      }
      loop = run(from);
      loop.catch((error: unknown) => deps.onError?.(error, undefined as never, 'sinks'));
    },
    async whenCaughtUp() {
      await waiters.until(await deps.store.headPosition());
    },
    whenProcessed: (position) => waiters.until(position),
    progress: (): LogProgress => ({ position: waiters.processed, recordedAt }),
    eventsRead: () => read,
    async stop() {
      abort.abort();
      await loop?.catch(() => undefined);
    },
  };
}
