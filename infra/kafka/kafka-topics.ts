import type { Admin } from 'kafkajs';
import { fail } from '../../domain/shared/errors.js';

/**
 * Topics are created by the adapter, never by the broker (auto-create is off in production, so a typo in
 * a topic name fails instead of creating a stray topic). Partition counts are fixed at creation: adding
 * partitions later would move keys to other partitions and break per-key order.
 *
 * `prefix` namespaces every topic and group, so several services (or test runs) can share one cluster.
 */

const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;
const LEADER_WAIT_MS = 15_000;

export class KafkaTopics {
  private readonly ensured = new Map<string, Promise<void>>();

  constructor(
    private readonly admin: Admin,
    readonly prefix: string,
    private readonly partitions: number,
    /** Topic-level max.message.bytes: events of a data import reach ~1 MB, above Kafka's 1 MB default. */
    private readonly maxMessageBytes: number,
  ) {}

  /** The broker's name for a logical topic or group. */
  physical(name: string): string {
    const full = this.prefix + name;
    if (!TOPIC_NAME.test(full) || full === '.' || full === '..') {
      throw fail('invalid_state', `invalid topic name ${JSON.stringify(full)} (Kafka allows [a-zA-Z0-9._-], 1 to 249 characters)`);
    }
    return full;
  }

  logical(physical: string): string {
    return physical.startsWith(this.prefix) ? physical.slice(this.prefix.length) : physical;
  }

  /** Creates the topic once per process (an existing topic keeps its partition count). */
  ensure(topic: string): Promise<void> {
    const name = this.physical(topic);
    let ensured = this.ensured.get(name);
    if (ensured === undefined) {
      ensured = this.create(name);
      ensured.catch(() => this.ensured.delete(name));
      this.ensured.set(name, ensured);
    }
    return ensured;
  }

  /**
   * Low and high watermarks per partition. kafkajs' fetchTopicOffsets fails outright (a TypeError inside it,
   * or UNKNOWN_TOPIC_OR_PARTITION) while a new topic's metadata is still propagating: retried, bounded.
   */
  async watermarks(physicalTopic: string): Promise<{ partition: number; low: string; high: string }[]> {
    const deadline = Date.now() + LEADER_WAIT_MS;
    for (;;) {
      try {
        return await this.admin.fetchTopicOffsets(physicalTopic);
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /**
   * Creates, then waits (bounded) until every partition has a leader. kafkajs' own `waitForLeaders` gives up
   * when the metadata still says UNKNOWN_TOPIC_OR_PARTITION, which a KRaft broker answers for a moment after
   * a create (seen under load with many topics created at once), so the wait is ours.
   */
  private async create(name: string): Promise<void> {
    await this.admin.createTopics({
      topics: [
        {
          topic: name,
          numPartitions: this.partitions,
          configEntries: [{ name: 'max.message.bytes', value: String(this.maxMessageBytes) }],
        },
      ],
      waitForLeaders: false,
    });
    const deadline = Date.now() + LEADER_WAIT_MS;
    let last: unknown;
    while (Date.now() < deadline) {
      try {
        const { topics } = await this.admin.fetchTopicMetadata({ topics: [name] });
        const partitions = topics.find((t) => t.name === name)?.partitions ?? [];
        if (partitions.length > 0 && partitions.every((p) => p.leader >= 0)) return;
      } catch (error) {
        last = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw fail('backend_unavailable', `Kafka topic ${name} has no leader after ${LEADER_WAIT_MS} ms${last ? `: ${String(last)}` : ''}`);
  }
}
