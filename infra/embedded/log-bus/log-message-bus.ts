import type { EventStore, Position } from '../../../domain/ports/event-store.port.js';
import type { ConsumedMessage, ConsumeOptions, Consumer, MessageBus } from '../../../domain/ports/message-bus.port.js';
import { deadLetterTopic } from '../../../domain/ports/message-bus.port.js';
import type { CheckpointStore } from '../../../domain/ports/read-store.port.js';
import { fail } from '../../../domain/shared/errors.js';
import { BUS_STREAMS, busEventOf, deadLetterOf, topicOfEvent } from './bus-events.js';
import { type Start, startOf, topicCheckpoint, TopicReader } from './topic-reader.js';

/**
 * The embedded message bus: no second copy of the log, but consumer groups that read the event log itself,
 * through one checkpointed subscription per topic (topic-reader.ts), its checkpoint in the CheckpointStore
 * (Kafka's committed offset of a group on a topic of one partition). A store event of family F is on topic
 * `events.F` (processors/topics.ts); a message published directly (a webhook retry, a dead letter, chain
 * transfers) is appended to the same log as an event of stream `bus-<topic>` (bus-events.ts), so the log is
 * the only store. Built on the EventStore and CheckpointStore ports only. One consumer per group at a time:
 * the embedded service is one process.
 */

const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

function checkTopic(topic: string): void {
  if (!TOPIC_NAME.test(topic) || topic === '.' || topic === '..')
    throw fail('invalid_state', `invalid topic name ${JSON.stringify(topic)} (Kafka allows [a-zA-Z0-9._-], 1 to 249 characters)`);
}

/** Messages of `topic` after `after` in the log. */
async function countAfter(store: EventStore, after: Position | null, topic: string): Promise<number> {
  let count = 0;
  for await (const event of store.readAll({ after: after ?? 'start' })) if (topicOfEvent(event) === topic) count += 1;
  return count;
}

/** Where a new reader of the group starts on `topic`; 'latest' is stored at once, so later messages are the group's. */
async function startingPoint(
  { store, checkpoints }: { store: EventStore; checkpoints: CheckpointStore },
  group: string,
  topic: string,
  startFrom: 'earliest' | 'latest',
): Promise<Start> {
  const start = await startOf(checkpoints, group, topic);
  if (start.from !== null || startFrom === 'earliest') return start;
  const head = await store.headPosition();
  if (head !== null && (await checkpoints.store(topicCheckpoint(group, topic), head, null)) === 'mismatch')
    throw fail('invalid_state', `group ${group} got a checkpoint while starting`);
  return { stored: head, from: head };
}

export function openLogMessageBus(deps: {
  store: EventStore;
  checkpoints: CheckpointStore;
  onError?: (error: unknown) => void;
}): MessageBus {
  const { store, checkpoints } = deps;
  const onError = deps.onError ?? (() => undefined);
  const running = new Map<string, Map<string, TopicReader>>();
  let closing = false;
  const isOpen = (): void => {
    if (closing) throw fail('store_closed', 'the message bus is closed');
  };

  const publish: MessageBus['publish'] = async (topic, messages) => {
    isOpen();
    checkTopic(topic);
    if (messages.length === 0) return;
    const now = new Date();
    await store.append(
      BUS_STREAMS.stream(topic),
      messages.map((m) => busEventOf(m, now)),
      { expected: 'any' },
    );
  };

  const deadLetter = (message: ConsumedMessage, error: unknown) => publish(deadLetterTopic(message.topic), [deadLetterOf(message, error)]);

  async function consume(options: ConsumeOptions): Promise<Consumer> {
    isOpen();
    const { group, topics, startFrom = 'earliest', maxBatchSize = 100, maxAttempts = 5, retryDelayMs = 100, handle } = options;
    if (topics.length === 0) throw fail('invalid_state', 'consume needs at least one topic');
    topics.forEach(checkTopic);
    if (!(maxBatchSize >= 1 && maxAttempts >= 1 && retryDelayMs >= 0))
      throw fail('invalid_state', 'invalid consume options', { maxBatchSize, maxAttempts, retryDelayMs });
    if (running.has(group)) throw fail('invalid_state', `group ${group} already has a consumer in this process`);
    const readers = new Map<string, TopicReader>();
    running.set(group, readers);
    const unique = [...new Set(topics)];
    const starts = await Promise.all(unique.map((topic) => startingPoint(deps, group, topic, startFrom))).catch((error: unknown) => {
      running.delete(group);
      throw error;
    });
    unique.forEach((topic, i) => {
      const options = { group, topic, maxBatchSize, maxAttempts, retryDelayMs, handle };
      readers.set(topic, new TopicReader({ store, checkpoints, deadLetter, onError }, options, starts[i] as Start));
    });
    let stopped: Promise<void> | undefined;
    return {
      whenCaughtUp: async () => void (await Promise.all([...readers.values()].map((reader) => reader.whenCaughtUp()))),
      stop: () => (stopped ??= Promise.all([...readers.values()].map((reader) => reader.stop())).then(() => void running.delete(group))),
    };
  }

  /** Per topic: the messages after what the group's running reader has handled, or after its checkpoint. */
  const lag: MessageBus['lag'] = async (group, names) => {
    isOpen();
    const counts = [...new Set(names)].map(async (topic) => {
      const reader = running.get(group)?.get(topic);
      const from = reader ? reader.handledUpTo : (await startOf(checkpoints, group, topic)).from;
      return { topic, messages: await countAfter(store, from, topic) };
    });
    return Promise.all(counts);
  };

  return {
    publish,
    consume,
    lag,
    async close() {
      if (closing) return;
      closing = true;
      await Promise.all([...running.values()].flatMap((readers) => [...readers.values()].map((reader) => reader.stop())));
    },
  };
}
