import type { Admin } from 'kafkajs';
import type { TopicLag } from '../../domain/ports/message-bus.port.js';
import type { KafkaTopics } from './kafka-topics.js';

/**
 * A consumer group's lag per topic, from the broker: the high watermark of each partition minus the
 * group's committed offset (the low watermark where the group never committed, as 'earliest' starts).
 * Committed offsets are the group's, so the answer covers every member, wherever it runs. A topic that
 * does not exist yet has nothing behind; looking does not create it.
 */
export async function kafkaGroupLag(admin: Admin, topics: KafkaTopics, group: string, logical: readonly string[]): Promise<TopicLag[]> {
  const names = [...new Set(logical)];
  const existing = new Set(await admin.listTopics());
  const present = names.filter((t) => existing.has(topics.physical(t)));
  const committed =
    present.length > 0 ? await admin.fetchOffsets({ groupId: topics.physical(group), topics: present.map((t) => topics.physical(t)) }) : [];
  const lags = new Map<string, number>();
  await Promise.all(
    present.map(async (topic) => {
      const physical = topics.physical(topic);
      const offsets = committed.find((c) => c.topic === physical)?.partitions ?? [];
      let behind = 0n;
      for (const mark of await topics.watermarks(physical)) {
        const offset = BigInt(offsets.find((p) => p.partition === mark.partition)?.offset ?? '-1');
        const from = offset < 0n ? BigInt(mark.low) : offset;
        const high = BigInt(mark.high);
        if (high > from) behind += high - from;
      }
      lags.set(topic, Number(behind));
    }),
  );
  return names.map((topic) => ({ topic, messages: lags.get(topic) ?? 0 }));
}
