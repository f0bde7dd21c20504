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
      ensured = this.admin
        .createTopics({
          topics: [{ topic: name, numPartitions: this.partitions, configEntries: [{ name: 'max.message.bytes', value: String(this.maxMessageBytes) }] }],
          waitForLeaders: true,
        })
        .then(() => undefined);
      ensured.catch(() => this.ensured.delete(name));
      this.ensured.set(name, ensured);
    }
    return ensured;
  }
}
