import type { MessageBus } from '../../domain/ports/message-bus.port.js';

export interface ConsumerGroup {
  readonly group: string;
  readonly topics: readonly string[];
}

/** A MessageBus that remembers which consumer groups this process runs (for their lag), until they stop. */
export function trackConsumerGroups(bus: MessageBus): MessageBus & { groups(): ConsumerGroup[] } {
  const running = new Map<object, ConsumerGroup>();
  return {
    publish: (topic, messages) => bus.publish(topic, messages),
    async consume(options) {
      const consumer = await bus.consume(options);
      const key = {};
      running.set(key, { group: options.group, topics: [...options.topics] });
      return {
        whenCaughtUp: () => consumer.whenCaughtUp(),
        async stop() {
          running.delete(key);
          await consumer.stop();
        },
      };
    },
    lag: (group, topics) => bus.lag(group, topics),
    close: () => bus.close(),
    groups: () => [...new Map([...running.values()].map((g) => [g.group, g])).values()],
  };
}
