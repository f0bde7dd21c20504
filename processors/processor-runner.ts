import type { Clock } from '../domain/ports/clock.port.js';
import type { CorrelationScope } from '../domain/ports/correlation.port.js';
import { silentLogger, type Logger } from '../domain/ports/logger.port.js';
import { HEADER, type ConsumedMessage, type Consumer, type MessageBus } from '../domain/ports/message-bus.port.js';
import { correlationOf } from './event-scope.js';
import type { BusEvent, Processor } from './processor.js';

/**
 * A consumed message as an event. A relayed event carries its id and revision as headers (relay.ts); a
 * bus-only message (a webhook retry) carries neither. Anything else cannot come from this service, and
 * fails here, loudly (the bus retries it, then dead-letters it), instead of going on under made-up values.
 */
export function toBusEvent(message: ConsumedMessage): BusEvent {
  const where = `${message.topic}[${message.partition}]@${message.offset}`;
  const value = message.value;
  if (!isEventValue(value)) throw new Error(`message ${where} is not an event: its value has no type`);
  const id = message.headers[HEADER.eventId];
  const revision = message.headers[HEADER.revision];
  if ((id === undefined) !== (revision === undefined))
    throw new Error(`message ${where} (${value.type}) carries only one of the event id and stream revision headers`);
  if (revision !== undefined && !/^\d+$/.test(revision))
    throw new Error(`message ${where} (${value.type}) has stream revision "${revision}"`);
  return {
    id: id ?? null,
    type: value.type,
    streamId: message.key,
    revision: revision === undefined ? null : BigInt(revision),
    data: value.data,
    metadata: value.metadata ?? {},
    message,
  };
}

function isEventValue(value: unknown): value is { type: string; data: unknown; metadata?: Record<string, unknown> } {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

interface Tracing {
  readonly correlation?: CorrelationScope;
  readonly log: Logger;
  /** Monotonic milliseconds, for the duration in the log line. */
  readonly now: () => number;
}

/** The event with its `scope`: the work a processor does about it runs in its correlation, and is logged. */
function traced(event: BusEvent, processor: string, tracing: Tracing): BusEvent {
  const correlation = correlationOf(event);
  const fields = {
    processor,
    eventId: event.id,
    eventType: event.type,
    streamId: event.streamId,
    correlationId: correlation?.correlationId ?? null,
    attempt: event.message.attempt,
  };
  return {
    ...event,
    async scope(work) {
      const started = tracing.now();
      const ms = () => Math.round((tracing.now() - started) * 1000) / 1000;
      try {
        const result = await (tracing.correlation && correlation ? tracing.correlation.run(correlation, work) : work());
        tracing.log.info({ ...fields, ms: ms() }, 'processor handled event');
        return result;
      } catch (error) {
        tracing.log.warn(
          { ...fields, ms: ms(), error: error instanceof Error ? error.message : String(error) },
          'processor failed on event',
        );
        throw error;
      }
    },
  };
}

/** The context's own scope, logger and clock when it has them (CommandDeps do), so every runner on them is traced. */
function tracingOf(context: unknown): Partial<Tracing> {
  const deps = (typeof context === 'object' && context !== null ? context : {}) as {
    correlation?: CorrelationScope;
    log?: Logger;
    clock?: Clock;
  };
  return {
    ...(deps.correlation ? { correlation: deps.correlation } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.clock ? { now: clockMillis(deps.clock) } : {}),
  };
}

const clockMillis = (clock: Clock) => (): number => clock.now().getTime();

/** Runs each processor as its own consumer group on the bus. */
export function createProcessorRunner<Context>(deps: {
  bus: MessageBus;
  processors: readonly Processor<Context>[];
  context: Context;
  /** Where the commands of a processor find the correlation of the event it handles (default: the context's). */
  correlation?: CorrelationScope;
  log?: Logger;
  now?: () => number;
}) {
  const own = tracingOf(deps.context);
  const correlation = deps.correlation ?? own.correlation;
  const tracing: Tracing = {
    log: deps.log ?? own.log ?? silentLogger,
    now: deps.now ?? own.now ?? (() => 0),
    ...(correlation ? { correlation } : {}),
  };
  let consumers: Consumer[] = [];
  return {
    async start() {
      consumers = await Promise.all(
        deps.processors.map((processor) =>
          deps.bus.consume({
            group: processor.name,
            topics: processor.topics,
            ...(processor.maxBatchSize ? { maxBatchSize: processor.maxBatchSize } : {}),
            handle: (batch) => {
              tracing.log.debug({ processor: processor.name, messages: batch.length, topic: batch[0]?.topic }, 'processor batch');
              return processor.handle(
                batch.map((message) => traced(toBusEvent(message), processor.name, tracing)),
                deps.context,
              );
            },
          }),
        ),
      );
    },
    async whenCaughtUp() {
      await Promise.all(consumers.map((c) => c.whenCaughtUp()));
      await Promise.all(deps.processors.map((processor) => processor.whenIdle?.()));
    },
    async stop() {
      await Promise.all(consumers.map((c) => c.stop()));
      consumers = [];
      await Promise.all(deps.processors.map((processor) => processor.whenIdle?.()));
    },
  };
}
