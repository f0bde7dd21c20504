import { present } from '../../domain/shared/present.js';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BusMessage, ConsumeOptions, ConsumedMessage, Consumer, MessageBus, TopicLag } from '../../domain/ports/message-bus.port.js';
import { HEADER, deadLetterTopic } from '../../domain/ports/message-bus.port.js';
import { fail } from '../../domain/shared/errors.js';
import { AtomicJsonFile } from './atomic-json-file.js';
import { BusConsumer } from './bus-consumer.js';
import { GroupOffsets } from './bus-group-offsets.js';
import { BusPartition, encode } from './bus-partition.js';
import { PartitionWorker } from './bus-partition-worker.js';
import { partitionFor } from './murmur2-partitioner.js';

/**
 * The embedded message bus: Kafka semantics in-process, persisted under `dir` so that messages and
 * committed offsets survive kill -9:
 *   topics/<topic>/meta.json   the partition count, fixed when the topic is created (first publish or consume)
 *   topics/<topic>/<n>.log     one framed log per partition
 *   groups/<group>.json        the group's committed offsets
 * Topics are created on first use with `options.partitions` (default 4). One consumer per group at a time:
 * the embedded service runs one process, so there is no rebalancing to do.
 */

const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

function checkTopic(topic: string): void {
  if (!TOPIC_NAME.test(topic) || topic === '.' || topic === '..') {
    throw fail('invalid_state', `invalid topic name ${JSON.stringify(topic)} (Kafka allows [a-zA-Z0-9._-], 1 to 249 characters)`);
  }
}

async function openTopic(dir: string, topic: string, partitions: number): Promise<BusPartition[]> {
  const topicDir = join(dir, 'topics', topic);
  await mkdir(topicDir, { recursive: true });
  const { file, value } = await AtomicJsonFile.open(join(topicDir, 'meta.json'));
  const count = (value as { partitions?: number } | undefined)?.partitions ?? partitions;
  const opened = await Promise.all(Array.from({ length: count }, (_, i) => BusPartition.open(topic, i, join(topicDir, `${i}.log`))));
  // Written after the logs exist: a crash in between leaves a topic that is simply created again.
  if (value === undefined) await file.write({ partitions: count });
  return opened;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}

export async function openFileMessageBus(dir: string, options: { partitions?: number } = {}): Promise<MessageBus> {
  const partitions = options.partitions ?? 4;
  if (!Number.isInteger(partitions) || partitions < 1) throw fail('config_invalid', 'partitions must be a positive integer');
  await mkdir(join(dir, 'topics'), { recursive: true });
  const topics = new Map<string, Promise<BusPartition[]>>();
  for (const entry of await readdir(join(dir, 'topics'), { withFileTypes: true })) {
    if (entry.isDirectory()) topics.set(entry.name, openTopic(dir, entry.name, partitions));
  }
  await Promise.all(topics.values());
  const groups = new Map<string, BusConsumer>();
  /** Offsets of the groups consumed in this process (their latest commits, durable or about to be). */
  const liveOffsets = new Map<string, GroupOffsets>();
  let closing = false;

  const isOpen = (): void => {
    if (closing) throw fail('store_closed', 'the message bus is closed');
  };

  function topicPartitions(topic: string): Promise<BusPartition[]> {
    checkTopic(topic);
    let opened = topics.get(topic);
    if (opened === undefined) topics.set(topic, (opened = openTopic(dir, topic, partitions)));
    return opened;
  }

  async function append(topic: string, messages: readonly BusMessage[]): Promise<void> {
    const payloads = messages.map(encode);
    const parts = await topicPartitions(topic);
    const byPartition = new Map<number, Buffer[]>();
    messages.forEach((m, i) => {
      const p = partitionFor(m.key, parts.length);
      byPartition.set(p, [...(byPartition.get(p) ?? []), present(payloads[i], 'one payload per message')]);
    });
    await Promise.all(
      [...byPartition].map(([p, batch]) => present(parts[p], 'partitionFor answers below the partition count').append(batch)),
    );
  }

  async function deadLetter(message: ConsumedMessage, error: unknown): Promise<void> {
    const headers = {
      ...message.headers,
      [HEADER.error]: errorText(error),
      [HEADER.attempts]: String(message.attempt),
      [HEADER.originalTopic]: message.topic,
      [HEADER.originalPartition]: String(message.partition),
      [HEADER.originalOffset]: String(message.offset),
    };
    await append(deadLetterTopic(message.topic), [{ key: message.key, value: message.value, headers }]);
  }

  async function consume(options: ConsumeOptions): Promise<Consumer> {
    isOpen();
    const { group, topics: names, startFrom = 'earliest', maxBatchSize = 100, maxAttempts = 5, retryDelayMs = 100 } = options;
    if (names.length === 0) throw fail('invalid_state', 'consume needs at least one topic');
    if (!(maxBatchSize >= 1 && maxAttempts >= 1 && retryDelayMs >= 0))
      throw fail('invalid_state', 'invalid consume options', { maxBatchSize, maxAttempts, retryDelayMs });
    if (groups.has(group)) throw fail('invalid_state', `group ${group} already has a consumer in this process`);
    const offsets = await GroupOffsets.open(join(dir, 'groups'), group);
    const consumer = new BusConsumer(async () => {
      await offsets.flush();
      groups.delete(group);
      liveOffsets.delete(group);
    });
    groups.set(group, consumer);
    liveOffsets.set(group, offsets);
    try {
      const assigned = (await Promise.all([...new Set(names)].map(topicPartitions))).flat();
      // Where a partition starts, persisted at once, so that messages published after this call are this
      // group's even if the process dies before its first commit (Kafka's 'latest' would skip them).
      const starts = assigned.map((p) => {
        const committed = offsets.get(p.topic, p.index);
        // A committed offset past the end means the log lost its unsynced tail: resume at the end.
        const offset = committed === undefined ? (startFrom === 'latest' ? p.end : 0) : Math.min(committed, p.end);
        return { topic: p.topic, partition: p.index, offset };
      });
      await offsets.commit(starts);
      for (const [i, partition] of assigned.entries()) {
        const commit = (offset: number) => offsets.commit([{ topic: partition.topic, partition: partition.index, offset }]);
        const worker = new PartitionWorker(partition, present(starts[i], 'one start offset per assigned partition').offset, {
          maxBatchSize,
          maxAttempts,
          retryDelayMs,
          handle: options.handle,
          commit,
          deadLetter,
          onCommitted: () => consumer.checkCaughtUp(),
        });
        consumer.workers.push(worker);
      }
    } catch (error) {
      await consumer.stop();
      throw error;
    }
    return consumer;
  }

  async function lag(group: string, names: readonly string[]): Promise<TopicLag[]> {
    isOpen();
    const offsets = liveOffsets.get(group) ?? (await GroupOffsets.open(join(dir, 'groups'), group));
    return Promise.all(
      [...new Set(names)].map(async (topic) => {
        // A topic nobody published to or consumed yet has nothing behind; looking must not create it.
        const parts = topics.has(topic) ? await topicPartitions(topic) : [];
        const messages = parts.reduce((sum, p) => sum + p.end - Math.min(offsets.get(topic, p.index) ?? 0, p.end), 0);
        return { topic, messages };
      }),
    );
  }

  return {
    async publish(topic, messages) {
      isOpen();
      if (messages.length > 0) await append(topic, messages);
    },
    consume,
    lag,
    async close() {
      if (closing) return;
      closing = true;
      await Promise.all([...groups.values()].map((c) => c.stop()));
      const opened = await Promise.all(topics.values());
      await Promise.all(opened.flat().map((p) => p.close()));
    },
  };
}
