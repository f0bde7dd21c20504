import type { EventStore } from '../../../domain/ports/event-store.port.js';
import type { ConsumedMessage, ConsumeOptions, Consumer, MessageBus } from '../../../domain/ports/message-bus.port.js';
import { deadLetterTopic } from '../../../domain/ports/message-bus.port.js';
import type { CheckpointStore } from '../../../domain/ports/read-store.port.js';
import { fail } from '../../../domain/shared/errors.js';
import { BUS_STREAMS, busEventOf, deadLetterOf } from './bus-events.js';
import { groupLag } from './group-lag.js';
import { GroupConsumer } from './group-consumer.js';

/**
 * The embedded message bus: no second copy of the log, but consumer groups that read the event log itself
 * through a checkpointed subscription each (group-consumer.ts), one checkpoint per group in the
 * CheckpointStore. A store event of family F is on topic `events.F` (processors/topics.ts); a message
 * published directly (a webhook retry, a dead letter, chain transfers) is appended to the same log as an
 * event of stream `bus-<topic>` (bus-events.ts), so the log is the only store. Built on the EventStore and
 * CheckpointStore ports only. One consumer per group at a time: the embedded service is one process.
 */

const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

function checkTopic(topic: string): void {
  if (!TOPIC_NAME.test(topic) || topic === '.' || topic === '..')
    throw fail('invalid_state', `invalid topic name ${JSON.stringify(topic)} (Kafka allows [a-zA-Z0-9._-], 1 to 249 characters)`);
}

export function openLogMessageBus(deps: {
  store: EventStore;
  checkpoints: CheckpointStore;
  /** Lanes per topic in each group (Kafka's partitions): default 4. */
  partitions?: number;
  onError?: (error: unknown) => void;
}): MessageBus {
  const { store, checkpoints } = deps;
  const onError = deps.onError ?? (() => undefined);
  const partitions = deps.partitions ?? 4;
  if (!Number.isInteger(partitions) || partitions < 1) throw fail('config_invalid', 'partitions must be a positive integer');
  const running = new Map<string, GroupConsumer>();
  /** The topics each group consumed in this process: a checkpoint counts only for those (lag). */
  const consumedTopics = new Map<string, Set<string>>();
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
    const { group, topics, startFrom = 'earliest', maxBatchSize = 100, maxAttempts = 5, retryDelayMs = 100 } = options;
    if (topics.length === 0) throw fail('invalid_state', 'consume needs at least one topic');
    topics.forEach(checkTopic);
    if (!(maxBatchSize >= 1 && maxAttempts >= 1 && retryDelayMs >= 0))
      throw fail('invalid_state', 'invalid consume options', { maxBatchSize, maxAttempts, retryDelayMs });
    if (running.has(group)) throw fail('invalid_state', `group ${group} already has a consumer in this process`);
    const settings = { group, topics: [...new Set(topics)], partitions, maxBatchSize, maxAttempts, retryDelayMs, handle: options.handle };
    const consumer = await GroupConsumer.start(
      { store, checkpoints, deadLetter, onError, onStopped: () => running.delete(group) },
      settings,
      startFrom,
    );
    running.set(group, consumer);
    consumedTopics.set(group, new Set([...(consumedTopics.get(group) ?? []), ...settings.topics]));
    return consumer;
  }

  const lag: MessageBus['lag'] = async (group, names) => {
    isOpen();
    return groupLag({ store, checkpoints, live: running.get(group), consumed: consumedTopics.get(group) }, group, names);
  };

  return {
    publish,
    consume,
    lag,
    async close() {
      if (closing) return;
      closing = true;
      await Promise.all([...running.values()].map((c) => c.stop()));
    },
  };
}
