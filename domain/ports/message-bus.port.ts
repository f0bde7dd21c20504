/**
 * The message bus port, with Kafka semantics so that the embedded bus and Kafka pass one contract suite:
 * - topics split into a fixed number of partitions; a message's key picks its partition, so messages of one
 *   key are handed over in publish order;
 * - consumer groups: each group sees every message once per successful handling, groups are independent,
 *   and a group's committed offsets survive a restart;
 * - at-least-once: offsets are committed only after `handle` resolves; a throwing handler gets the same
 *   batch again (after `retryDelayMs`), and a message that has failed `maxAttempts` times is moved to the
 *   dead-letter topic `<topic>.dlt` with its error, so a poison message never blocks its partition;
 * - `notBefore` delays a message: it is not handed to a handler before that time (webhook retries);
 * - `publish` resolves once the messages are durable.
 */

export type MessageHeaders = Readonly<Record<string, string>>;

export interface BusMessage {
  readonly key: string;
  /** JSON-serializable. */
  readonly value: unknown;
  readonly headers: MessageHeaders;
  /** Epoch milliseconds before which the message must not be handled. */
  readonly notBefore?: number;
}

export interface ConsumedMessage extends BusMessage {
  readonly topic: string;
  readonly partition: number;
  readonly offset: bigint;
  /** 1 on first delivery to this group, then 2, 3, … on redelivery after a failure. */
  readonly attempt: number;
}

export interface ConsumeOptions {
  readonly group: string;
  readonly topics: readonly string[];
  /** Where a group without committed offsets starts. Defaults to 'earliest'. */
  readonly startFrom?: 'earliest' | 'latest';
  /** Messages of one partition handed over together, at most. Defaults to 100. */
  readonly maxBatchSize?: number;
  /** Failed handlings of one batch before its first message goes to the dead-letter topic. Defaults to 5. */
  readonly maxAttempts?: number;
  /** Wait before a failed batch is handed over again. Defaults to 100 ms. */
  readonly retryDelayMs?: number;
  readonly handle: (batch: readonly ConsumedMessage[]) => Promise<void>;
}

export interface Consumer {
  /** Resolves when every partition's committed offset has reached the end offset known at the call. */
  whenCaughtUp(): Promise<void>;
  /** Waits for the batch in flight, commits, and leaves the group. */
  stop(): Promise<void>;
}

/** How far a consumer group is behind on one topic: messages published but not yet committed by the group. */
export interface TopicLag {
  readonly topic: string;
  /** Sum over the topic's partitions of (end offset − the group's committed offset); delayed messages count. */
  readonly messages: number;
}

export interface MessageBus {
  publish(topic: string, messages: readonly BusMessage[]): Promise<void>;
  consume(options: ConsumeOptions): Promise<Consumer>;
  /**
   * The group's lag on each of `topics` (metrics). A partition the group never committed counts from where
   * an 'earliest' consumer would start. Reads committed offsets, so it sees every member of the group.
   */
  lag(group: string, topics: readonly string[]): Promise<readonly TopicLag[]>;
  close(): Promise<void>;
}

export const deadLetterTopic = (topic: string): string => `${topic}.dlt`;

/** Header names carried by every relayed event (Kafka headers in production). */
export const HEADER = {
  eventId: 'event-id',
  eventType: 'event-type',
  streamId: 'stream-id',
  revision: 'stream-revision',
  commit: 'commit-position',
  prepare: 'prepare-position',
  error: 'x-error',
  attempts: 'x-attempts',
  originalTopic: 'x-original-topic',
  originalPartition: 'x-original-partition',
  originalOffset: 'x-original-offset',
} as const;
