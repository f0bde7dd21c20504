import type { EventStore, Position, RecordedEvent } from '../domain/ports/event-store.port.js';
import { HEADER, type BusMessage, type MessageBus } from '../domain/ports/message-bus.port.js';
import type { CheckpointStore } from '../domain/ports/read-store.port.js';
import { createPositionWaiters } from './position-waiters.js';
import { topicOfStream } from './topics.js';

/**
 * Copies `$all` onto the bus, then stores its checkpoint. A crash between publish and checkpoint
 * publishes some events again: consumers dedupe on the `event-id` header (at-least-once).
 */
export interface Relay {
  start(): Promise<void>;
  whenCaughtUp(): Promise<void>;
  stop(): Promise<void>;
}

const NAME = 'relay';
const BACKLOG_BATCH = 256;

export function toBusMessage(event: RecordedEvent): BusMessage {
  return {
    key: event.streamId,
    value: { type: event.type, data: event.data, metadata: event.metadata, created: event.created.toISOString() },
    headers: {
      [HEADER.eventId]: event.id,
      [HEADER.eventType]: event.type,
      [HEADER.streamId]: event.streamId,
      [HEADER.revision]: event.revision.toString(),
      [HEADER.commit]: event.position.commit.toString(),
      [HEADER.prepare]: event.position.prepare.toString(),
    },
  };
}

export function createRelay(deps: {
  store: EventStore;
  bus: MessageBus;
  checkpoints: CheckpointStore;
  onError?: (error: unknown) => void;
}): Relay {
  const waiters = createPositionWaiters();
  const abort = new AbortController();
  let saved: Position | null = null;
  let pending: RecordedEvent[] = [];
  let live = false;
  let loop: Promise<void> | null = null;

  // Publishing per topic in arrival order keeps each key's order; one checkpoint per flushed batch.
  async function flush() {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    const byTopic = new Map<string, BusMessage[]>();
    for (const event of batch) {
      const topic = topicOfStream(event.streamId);
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), toBusMessage(event)]);
    }
    await Promise.all([...byTopic].map(([topic, messages]) => deps.bus.publish(topic, messages)));
    const last = batch[batch.length - 1]!.position;
    if ((await deps.checkpoints.store(NAME, last, saved)) === 'mismatch') throw new Error('relay checkpoint moved by another relay');
    saved = last;
    waiters.advance(last);
  }

  async function run() {
    for await (const delivery of deps.store.subscribeToAll({ from: saved ?? 'start', signal: abort.signal })) {
      if (delivery.kind === 'caughtUp') {
        live = true;
        await flush();
        continue;
      }
      pending.push(delivery.event);
      if (live || pending.length >= BACKLOG_BATCH) await flush();
    }
  }

  return {
    async start() {
      saved = await deps.checkpoints.load(NAME);
      if (saved) waiters.advance(saved);
      loop = run();
      loop.catch((error) => deps.onError?.(error));
    },
    async whenCaughtUp() {
      await waiters.until(await deps.store.headPosition());
    },
    async stop() {
      abort.abort();
      await loop?.catch(() => undefined);
      await flush().catch(() => undefined);
    },
  };
}
