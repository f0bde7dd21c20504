import { HEADER, type ConsumedMessage, type Consumer, type MessageBus } from '../domain/ports/message-bus.port.js';
import type { BusEvent, Processor } from './processor.js';

export function toBusEvent(message: ConsumedMessage): BusEvent {
  const value = message.value as { type: string; data: unknown; metadata: Record<string, unknown> };
  return {
    id: message.headers[HEADER.eventId] ?? '',
    type: value.type,
    streamId: message.key,
    revision: BigInt(message.headers[HEADER.revision] ?? '-1'),
    data: value.data,
    metadata: value.metadata,
    message,
  };
}

/** Runs each processor as its own consumer group on the bus. */
export function createProcessorRunner<Context>(deps: {
  bus: MessageBus;
  processors: readonly Processor<Context>[];
  context: Context;
}) {
  let consumers: Consumer[] = [];
  return {
    async start() {
      consumers = await Promise.all(
        deps.processors.map((processor) =>
          deps.bus.consume({
            group: processor.name,
            topics: processor.topics,
            handle: (batch) => processor.handle(batch.map(toBusEvent), deps.context),
          }),
        ),
      );
    },
    async whenCaughtUp() {
      await Promise.all(consumers.map((c) => c.whenCaughtUp()));
    },
    async stop() {
      await Promise.all(consumers.map((c) => c.stop()));
      consumers = [];
    },
  };
}
