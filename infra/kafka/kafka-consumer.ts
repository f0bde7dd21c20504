import { present } from '../../domain/shared/present.js';
import type { Admin, Consumer as KafkaJsConsumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { BusMessage, ConsumeOptions, ConsumedMessage, Consumer } from '../../domain/ports/message-bus.port.js';
import { fail } from '../../domain/shared/errors.js';
import { fromRecord } from './kafka-codec.js';
import type { KafkaTopics } from './kafka-topics.js';

/**
 * One consumer-group member on kafkajs with the port's semantics:
 * - `eachBatch` with manual offsets: a chunk of at most `maxBatchSize` messages is handed over, and its
 *   offsets are resolved and committed only after `handle` resolves;
 * - a throwing handler gets the same chunk again after `retryDelayMs` with `attempt` + 1 (heartbeating
 *   meanwhile); after `maxAttempts` failures the chunk's first message goes to `<topic>.dlt` and the
 *   partition goes on, so a poison message never blocks it forever (kafkajs alone would restart the
 *   consumer on the same message indefinitely);
 * - a head message whose `notBefore` lies ahead pauses its partition until then (no busy loop, other
 *   partitions go on), and the broker fetches it again on resume because its offset was not resolved;
 * - `stop` lets the chunk in flight finish and commit, then leaves the group.
 */

export interface KafkaConsumerDeps {
  readonly kafka: Kafka;
  readonly admin: Admin;
  readonly topics: KafkaTopics;
  readonly sessionTimeoutMs: number;
  readonly concurrency: number;
  readonly deadLetter: (message: ConsumedMessage, error: unknown) => Promise<void>;
  readonly deadLetterRaw: (topic: string, partition: number, offset: string, record: BusMessage, error: unknown) => Promise<void>;
}

const JOIN_TIMEOUT_MS = 30_000;
const CAUGHT_UP_POLL_MS = 25;

export async function startKafkaConsumer(deps: KafkaConsumerDeps, options: ConsumeOptions): Promise<Consumer> {
  const { group, topics: logicalTopics, startFrom = 'earliest', maxBatchSize = 100, maxAttempts = 5, retryDelayMs = 100 } = options;
  if (logicalTopics.length === 0) throw fail('invalid_state', 'consume needs at least one topic');
  if (!(maxBatchSize >= 1 && maxAttempts >= 1 && retryDelayMs >= 0)) {
    throw fail('invalid_state', 'invalid consume options', { maxBatchSize, maxAttempts, retryDelayMs });
  }
  const topicNames = [...new Set(logicalTopics)];
  await Promise.all(topicNames.map((t) => deps.topics.ensure(t)));
  const physicalTopics = topicNames.map((t) => deps.topics.physical(t));
  const groupId = deps.topics.physical(group);

  const consumer = deps.kafka.consumer({
    groupId,
    sessionTimeout: deps.sessionTimeoutMs,
    heartbeatInterval: Math.max(100, Math.floor(deps.sessionTimeoutMs / 10)),
    // Long polls end as soon as data arrives; the short maximum makes a resumed partition fetch promptly.
    maxWaitTimeInMs: 100,
    allowAutoTopicCreation: false,
    retry: { retries: 5, initialRetryTime: 100 },
  });
  const member = new Member(consumer, deps, groupId, physicalTopics, { maxBatchSize, maxAttempts, retryDelayMs, handle: options.handle });
  const joined = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(fail('backend_unavailable', `consumer group ${groupId} did not join within ${JOIN_TIMEOUT_MS} ms`)),
      JOIN_TIMEOUT_MS,
    );
    timer.unref();
    consumer.on(consumer.events.GROUP_JOIN, () => {
      clearTimeout(timer);
      resolve();
    });
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: physicalTopics, fromBeginning: startFrom === 'earliest' });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: deps.concurrency,
      eachBatch: (payload) => member.eachBatch(payload),
    });
    if (startFrom === 'latest') {
      await joined;
      await member.markStart(startFrom);
    } else {
      // Not awaited: after a crash the broker holds the dead member's partitions for up to the session
      // timeout, and a restarting service must not wait that long to serve. 'earliest' loses nothing by it.
      joined.then(() => member.markStart(startFrom)).catch(() => undefined);
    }
  } catch (error) {
    await member.stop().catch(() => undefined);
    throw error;
  }
  return member;
}

interface ChunkOptions {
  readonly maxBatchSize: number;
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly handle: ConsumeOptions['handle'];
}

class Member implements Consumer {
  private stopping = false;
  private stopped: Promise<void> | null = null;
  /** Next offset committed by this member, per `topic/partition`. */
  private readonly committed = new Map<string, bigint>();
  /** Where a partition without a committed offset starts, per `topic/partition` (see markStart). */
  private readonly starts = new Map<string, bigint>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly sleepers = new Set<() => void>();
  private readonly commitListeners = new Set<() => void>();

  constructor(
    private readonly consumer: KafkaJsConsumer,
    private readonly deps: KafkaConsumerDeps,
    private readonly groupId: string,
    private readonly physicalTopics: readonly string[],
    private readonly options: ChunkOptions,
  ) {}

  /**
   * Where a partition without a committed offset starts, for `whenCaughtUp`. kafkajs resolves a new group's
   * 'latest' only at its first fetch, after the join, so a message published just after `consume` resolved
   * could fall before it: the marks are read after the join and 'latest' partitions are pinned to them (a
   * local seek, committed with the first handled batch). Kafka keeps nothing for a group before its first
   * commit, so a brand-new 'latest' group that dies before committing starts at the then-latest offset; the
   * service's own groups all start from 'earliest'.
   */
  async markStart(startFrom: 'earliest' | 'latest'): Promise<void> {
    const committed =
      startFrom === 'latest' ? await this.deps.admin.fetchOffsets({ groupId: this.groupId, topics: [...this.physicalTopics] }) : [];
    for (const topic of this.physicalTopics) {
      for (const mark of await this.deps.topics.watermarks(topic)) {
        this.starts.set(`${topic}/${mark.partition}`, BigInt(startFrom === 'latest' ? mark.high : mark.low));
        const none = committed.find((t) => t.topic === topic)?.partitions.find((p) => p.partition === mark.partition)?.offset === '-1';
        if (none) this.consumer.seek({ topic, partition: mark.partition, offset: mark.high });
      }
    }
  }

  async eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, uncommittedOffsets, isRunning, isStale, pause } = payload;
    const topic = this.deps.topics.logical(batch.topic);
    const live = () => !this.stopping && isRunning() && !isStale();
    const commit = async (offset: string) => {
      resolveOffset(offset);
      await commitOffsetsIfNecessary(uncommittedOffsets());
      this.committed.set(`${batch.topic}/${batch.partition}`, BigInt(offset) + 1n);
      for (const listener of [...this.commitListeners]) listener();
    };

    let i = 0;
    while (i < batch.messages.length && live()) {
      const chunk: { record: (typeof batch.messages)[number]; message: ConsumedMessage }[] = [];
      for (let j = i; j < batch.messages.length && chunk.length < this.options.maxBatchSize; j += 1) {
        const record = present(batch.messages[j], 'j stays below the batch length');
        let decoded: ReturnType<typeof fromRecord>;
        try {
          decoded = fromRecord(topic, batch.partition, record);
        } catch (error) {
          if (chunk.length > 0) break;
          // A record that is not our JSON can never be handled: straight to the dead-letter topic.
          const raw = { key: record.key?.toString('utf8') ?? '', value: record.value?.toString('utf8') ?? null, headers: {} };
          await this.deps.deadLetterRaw(topic, batch.partition, record.offset, raw, error);
          await commit(record.offset);
          i = j + 1;
          break;
        }
        if (decoded.notBefore !== undefined && decoded.notBefore > Date.now()) {
          if (chunk.length === 0) return this.holdUntil(decoded.notBefore, pause);
          break;
        }
        chunk.push({ record, message: { ...decoded.message, attempt: 1 } });
      }
      if (chunk.length === 0) continue;

      let handledUpTo = chunk.length;
      for (let attempt = 1; ; attempt += 1) {
        const messages =
          attempt === 1
            ? chunk.map((c) => c.message)
            : chunk.map((c) => ({ ...fromRecord(topic, batch.partition, c.record).message, attempt }));
        try {
          await this.options.handle(messages);
          break;
        } catch (error) {
          if (attempt >= this.options.maxAttempts) {
            await this.deps.deadLetter(present(messages[0], 'a chunk is handled only when it holds a message'), error);
            handledUpTo = 1;
            break;
          }
          await this.sleep(this.options.retryDelayMs);
          // A rebalance surfaces here as a thrown heartbeat: kafkajs then rejoins and refetches from the commit.
          await heartbeat();
          if (!live()) return;
        }
      }
      await commit(present(chunk[handledUpTo - 1], 'handledUpTo counts handled messages of this chunk, at least one').record.offset);
      i += handledUpTo;
      await heartbeat();
    }
  }

  /** Pauses the partition until `notBefore`; its unresolved head is fetched again after the resume. */
  private holdUntil(notBefore: number, pause: () => () => void): void {
    const resume = pause();
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.stopping) resume();
      },
      Math.min(notBefore - Date.now() + 1, 2 ** 31 - 1),
    );
    this.timers.add(timer);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  async whenCaughtUp(): Promise<void> {
    if (this.stopped !== null) throw fail('invalid_state', 'the consumer is stopped');
    const targets = new Map<string, bigint>();
    for (const topic of this.physicalTopics) {
      for (const mark of await this.deps.topics.watermarks(topic)) targets.set(`${topic}/${mark.partition}`, BigInt(mark.high));
    }
    // Partitions held by other members of the group are read from the broker's committed offsets.
    for (;;) {
      if (this.stopped !== null) throw fail('invalid_state', 'the consumer stopped before catching up');
      const behind = [...targets].filter(([key, end]) => (this.committed.get(key) ?? -1n) < end);
      if (behind.length === 0) return;
      const remote = await this.deps.admin.fetchOffsets({ groupId: this.groupId, topics: [...this.physicalTopics] });
      const stillBehind = behind.filter(([key, end]) => {
        const [topic, partition] = splitKey(key);
        const offset = BigInt(remote.find((t) => t.topic === topic)?.partitions.find((p) => p.partition === partition)?.offset ?? '-1');
        return (offset < 0n ? (this.starts.get(key) ?? 0n) : offset) < end;
      });
      if (stillBehind.length === 0) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.commitListeners.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, CAUGHT_UP_POLL_MS);
        this.commitListeners.add(wake);
      });
    }
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      for (const wake of [...this.sleepers]) wake();
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
      // Waits for the batch in flight (kafkajs' runner.stop), then leaves the group.
      await this.consumer.disconnect();
      for (const listener of [...this.commitListeners]) listener();
    })();
    return this.stopped;
  }
}

function splitKey(key: string): [string, number] {
  const at = key.lastIndexOf('/');
  return [key.slice(0, at), Number(key.slice(at + 1))];
}
