import type { EventStore, Position } from '../../../domain/ports/event-store.port.js';
import type { TopicLag } from '../../../domain/ports/message-bus.port.js';
import type { CheckpointStore } from '../../../domain/ports/read-store.port.js';
import { topicOfEvent } from './bus-events.js';
import { groupCheckpoint, type GroupConsumer } from './group-consumer.js';

/** Messages of each of `topics` after `after` in the log (none of them: no read at all). */
async function countAfter(store: EventStore, after: Position | null, topics: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map(topics.map((t) => [t, 0]));
  if (topics.length === 0) return counts;
  for await (const event of store.readAll({ after: after ?? 'start' })) {
    const topic = topicOfEvent(event);
    const count = counts.get(topic);
    if (count !== undefined) counts.set(topic, count + 1);
  }
  return counts;
}

/**
 * A group's lag per topic (MessageBus.lag): for a group consuming here, the messages its lanes hold (delayed
 * ones included) plus those its subscription has not read yet; for a group stopped here, those after its
 * checkpoint; a topic the group has not consumed in this process counts from the start of the log (its one
 * checkpoint in `$all` says nothing about a topic it never asked for).
 */
export async function groupLag(
  deps: { store: EventStore; checkpoints: CheckpointStore; live: GroupConsumer | undefined; consumed: ReadonlySet<string> | undefined },
  group: string,
  names: readonly string[],
): Promise<TopicLag[]> {
  const { store, live } = deps;
  const topics = [...new Set(names)];
  const mine = topics.filter((t) => (live ? live.topics.includes(t) : (deps.consumed?.has(t) ?? false)));
  const others = topics.filter((t) => !mine.includes(t));
  const from = live ? live.readUpTo : await deps.checkpoints.load(groupCheckpoint(group));
  const [ahead, fromStart] = await Promise.all([countAfter(store, from, mine), countAfter(store, null, others)]);
  return topics.map((topic) => ({
    topic,
    messages: (ahead.get(topic) ?? fromStart.get(topic) ?? 0) + (live && mine.includes(topic) ? live.openOf(topic) : 0),
  }));
}
