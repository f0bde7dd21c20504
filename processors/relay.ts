import { present } from '../domain/shared/present.js';
import type { EventStore, Position, RecordedEvent } from '../domain/ports/event-store.port.js';
import { HEADER, type BusMessage, type MessageBus } from '../domain/ports/message-bus.port.js';
import type { CheckpointStore } from '../domain/ports/read-store.port.js';
import type { LogProgress } from './log-progress.js';
import { createPositionWaiters } from './position-waiters.js';
import { topicOfStream } from './topics.js';

/**
 * Copies `$all` onto the bus. Events that arrive while a publish is in flight are published together
 * in the next round, so a busy log costs one bus write per round, not per event. The checkpoint is
 * stored after the bus has the events, at most every CHECKPOINT_INTERVAL_MS: a crash republishes what
 * came after it, and consumers dedupe on the `event-id` header (at-least-once). Only with Kafka (external
 * mode): the embedded bus reads the log itself (infra/embedded/log-bus).
 */
export interface Relay {
  start(): Promise<void>;
  whenCaughtUp(): Promise<void>;
  stop(): Promise<void>;
  /** The last event on the bus (metrics: relay lag). */
  progress(): LogProgress;
}

const NAME = 'relay';
const MAX_ROUND = 1024;
const CHECKPOINT_INTERVAL_MS = 200;
/** After a failed publish the round stays pending and is tried again after this pause. */
const RETRY_AFTER_MS = 500;

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
  let savedAt = 0;
  const pending: RecordedEvent[] = [];
  let publishing: Promise<void> | null = null;
  let recordedAt: Date | null = null;
  let loop: Promise<void> | null = null;

  async function saveCheckpoint(force: boolean) {
    const position = waiters.processed;
    if (!position || position === saved || (!force && Date.now() - savedAt < CHECKPOINT_INTERVAL_MS)) return;
    if ((await deps.checkpoints.store(NAME, position, saved)) === 'mismatch') throw new Error('relay checkpoint moved by another relay');
    saved = position;
    savedAt = Date.now();
  }

  async function publishRound() {
    const round = pending.splice(0, MAX_ROUND);
    const byTopic = new Map<string, BusMessage[]>();
    for (const event of round) {
      const topic = topicOfStream(event.streamId);
      const messages = byTopic.get(topic) ?? [];
      messages.push(toBusMessage(event));
      byTopic.set(topic, messages);
    }
    try {
      await Promise.all([...byTopic].map(([topic, messages]) => deps.bus.publish(topic, messages)));
    } catch (error) {
      pending.unshift(...round); // published again on the next round: consumers dedupe
      throw error;
    }
    waiters.advance(present(round[round.length - 1], 'a round is published only when it holds an event').position);
    recordedAt = present(round[round.length - 1], 'a round is published only when it holds an event').created;
    await saveCheckpoint(false);
  }

  /** Publishes rounds until nothing is pending; one such drain runs at a time. */
  function drain(): Promise<void> {
    if (publishing) return publishing;
    if (pending.length === 0) return Promise.resolve();
    const running = (async () => {
      while (pending.length > 0) await publishRound();
    })();
    publishing = running.then(
      () => {
        publishing = null;
        // An event pushed between the loop's last check and here would otherwise wait for the next one.
        if (pending.length > 0) void drain();
      },
      (error: unknown) => {
        publishing = null;
        deps.onError?.(error);
        // The bus is down or refused the round: it is still pending, so try again shortly, not never.
        if (!abort.signal.aborted) setTimeout(() => void drain(), RETRY_AFTER_MS).unref();
      },
    );
    return publishing;
  }

  async function run() {
    for await (const delivery of deps.store.subscribeToAll({ from: saved ?? 'start', signal: abort.signal })) {
      if (delivery.kind === 'caughtUp') {
        await drain();
        await saveCheckpoint(true);
        continue;
      }
      // Unfiltered: the store yields no checkpoint deliveries.
      if (delivery.kind === 'checkpoint') continue;
      pending.push(delivery.event);
      // Back-pressure: reading the log never runs far ahead of the bus.
      if (pending.length >= MAX_ROUND) await drain();
      else void drain();
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
    progress: () => ({ position: waiters.processed, recordedAt }),
    async stop() {
      abort.abort();
      await loop?.catch(() => undefined);
      await drain().catch(() => undefined);
      await saveCheckpoint(true).catch(() => undefined);
    },
  };
}
