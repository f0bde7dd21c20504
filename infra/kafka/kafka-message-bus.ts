import { Kafka, logLevel, Partitioners, type Message, type Producer } from 'kafkajs';
import type { BusMessage, ConsumedMessage, Consumer, MessageBus } from '../../domain/ports/message-bus.port.js';
import { HEADER, deadLetterTopic } from '../../domain/ports/message-bus.port.js';
import { fail } from '../../domain/shared/errors.js';
import { requireReachable, splitHostPort } from '../external/tcp-probe.js';
import { toRecord } from './kafka-codec.js';
import { kafkaGroupLag } from './kafka-lag.js';
import { startKafkaConsumer } from './kafka-consumer.js';
import { KafkaTopics } from './kafka-topics.js';

/**
 * The MessageBus port on Apache Kafka (kafkajs). Messages are keyed by stream id and placed by the
 * Java-compatible murmur2 partitioner (so a key lands where the Java clients put it), published by an idempotent producer with
 * acks=all, so `publish` resolves once the broker has them durably. Consumers: see kafka-consumer.ts.
 */

export interface KafkaBusOptions {
  /** `host:port` list; use 127.0.0.1 rather than localhost (Node may resolve it to ::1). */
  readonly brokers: readonly string[];
  readonly clientId?: string;
  /** Prepended to every topic and group name, so several services or test runs can share a cluster. */
  readonly prefix?: string;
  /** Partitions of topics this adapter creates. Defaults to 4. */
  readonly partitions?: number;
  /** Group session timeout: how long a dead member holds its partitions. Defaults to 30 s. */
  readonly sessionTimeoutMs?: number;
  /** Partitions handled concurrently per consumer. Defaults to 4. */
  readonly concurrency?: number;
  /** Connect timeout of the start check. Defaults to 2 s. */
  readonly connectTimeoutMs?: number;
  /** Largest message a topic created here accepts. Defaults to 16 MiB. */
  readonly maxMessageBytes?: number;
  /** Replaces kafkajs' socket factory (the scale-out test uses it to cut a member off like a kill -9). */
  readonly socketFactory?: ConstructorParameters<typeof Kafka>[0]['socketFactory'];
}

const SEND_BUDGET = 512 * 1024;

function recordSize(record: Message): number {
  const headers = Object.entries(record.headers ?? {}).reduce((n, [k, v]) => n + k.length + String(v).length, 0);
  return Buffer.byteLength(String(record.key ?? '')) + Buffer.byteLength(String(record.value ?? '')) + headers + 64;
}

function* chunksBySize(records: readonly Message[], budget: number): Iterable<Message[]> {
  let chunk: Message[] = [];
  let size = 0;
  for (const record of records) {
    const bytes = recordSize(record);
    if (chunk.length > 0 && size + bytes > budget) {
      yield chunk;
      chunk = [];
      size = 0;
    }
    chunk.push(record);
    size += bytes;
  }
  if (chunk.length > 0) yield chunk;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, 2000);
}

export async function openKafkaMessageBus(options: KafkaBusOptions): Promise<MessageBus> {
  if (options.brokers.length === 0) throw fail('config_invalid', 'KAFKA_BROKERS names no broker');
  const connectTimeout = options.connectTimeoutMs ?? 2000;
  await requireReachable(
    'Kafka',
    options.brokers.map((b) => splitHostPort(b, 9092)),
    connectTimeout,
  );

  process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';
  const kafka = new Kafka({
    clientId: options.clientId ?? 'risk-screening',
    brokers: [...options.brokers],
    connectionTimeout: connectTimeout,
    logLevel: logLevel.NOTHING,
    retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2000 },
    ...(options.socketFactory ? { socketFactory: options.socketFactory } : {}),
  });
  // A topic just created may be briefly unknown to the partition leader (UNKNOWN_TOPIC_OR_PARTITION, retriable).
  const admin = kafka.admin({ retry: { retries: 8, initialRetryTime: 100, maxRetryTime: 1000 } });
  const producer: Producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  try {
    await admin.connect();
    await admin.describeCluster();
    await producer.connect();
  } catch (error) {
    await Promise.allSettled([admin.disconnect(), producer.disconnect()]);
    throw fail('backend_unavailable', `Kafka at ${options.brokers.join(',')} does not answer: ${errorText(error)}`);
  }

  const maxMessageBytes = options.maxMessageBytes ?? 16 * 1024 * 1024;
  const topics = new KafkaTopics(admin, options.prefix ?? '', options.partitions ?? 4, maxMessageBytes);
  const consumers = new Set<Consumer>();
  let closing: Promise<void> | null = null;
  const isOpen = () => {
    if (closing) throw fail('store_closed', 'the message bus is closed');
  };

  async function publish(topic: string, messages: readonly BusMessage[]): Promise<void> {
    isOpen();
    if (messages.length === 0) return;
    await topics.ensure(topic);
    const name = topics.physical(topic);
    // One send becomes one record batch per partition, which the broker checks against max.message.bytes:
    // sends are cut at SEND_BUDGET bytes (a single larger message goes alone), in order, so keys keep theirs.
    for (const chunk of chunksBySize(messages.map(toRecord), SEND_BUDGET)) {
      const too = chunk.find((m) => recordSize(m) > maxMessageBytes);
      if (too) throw fail('bad_request', `message of ${recordSize(too)} bytes for ${topic} exceeds max.message.bytes ${maxMessageBytes}`);
      await producer.send({ topic: name, acks: -1, messages: chunk });
    }
  }

  const failureHeaders = (topic: string, partition: number, offset: string, attempts: number, error: unknown) => ({
    [HEADER.error]: errorText(error),
    [HEADER.attempts]: String(attempts),
    [HEADER.originalTopic]: topic,
    [HEADER.originalPartition]: String(partition),
    [HEADER.originalOffset]: offset,
  });

  const deadLetter = (message: ConsumedMessage, error: unknown) =>
    publish(deadLetterTopic(message.topic), [
      {
        key: message.key,
        value: message.value,
        headers: {
          ...message.headers,
          ...failureHeaders(message.topic, message.partition, String(message.offset), message.attempt, error),
        },
      },
    ]);
  const deadLetterRaw = (topic: string, partition: number, offset: string, record: BusMessage, error: unknown) =>
    publish(deadLetterTopic(topic), [{ ...record, headers: failureHeaders(topic, partition, offset, 1, error) }]);

  const deps = {
    kafka,
    admin,
    topics,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000,
    concurrency: options.concurrency ?? 4,
    deadLetter,
    deadLetterRaw,
  };

  return {
    publish,
    async consume(consumeOptions) {
      isOpen();
      const consumer = await startKafkaConsumer(deps, consumeOptions);
      const tracked: Consumer = {
        whenCaughtUp: () => consumer.whenCaughtUp(),
        stop: async () => {
          consumers.delete(tracked);
          await consumer.stop();
        },
      };
      consumers.add(tracked);
      return tracked;
    },
    lag(group, logicalTopics) {
      isOpen();
      return kafkaGroupLag(admin, topics, group, logicalTopics);
    },
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...consumers].map((c) => c.stop()));
        await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
      })();
      return closing;
    },
  };
}
