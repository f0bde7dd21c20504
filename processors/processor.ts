import type { ConsumedMessage } from '../domain/ports/message-bus.port.js';

/** A relayed event as processors see it (or a message only the bus carries, such as a webhook retry). */
export interface BusEvent {
  /** The store event's id; null for a bus-only message, which has no event behind it (see storedEventOf). */
  readonly id: string | null;
  readonly type: string;
  readonly streamId: string;
  /** The event's revision in its stream; null for a bus-only message. */
  readonly revision: bigint | null;
  readonly data: unknown;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly message: ConsumedMessage;
  /**
   * Set by the runner: runs `work` as this event's consequence, so the commands it issues carry the event's
   * correlationId with the event's id as causationId, and logs it (processor, event, correlation, outcome).
   * Processors call it through `asConsequenceOf` (event-scope.ts).
   */
  readonly scope?: <T>(work: () => Promise<T>) => Promise<T>;
}

/**
 * One pipeline: the topics it reads as its own consumer group and what it does with a batch. It must be
 * idempotent (at-least-once delivery) and record its outcome by issuing commands.
 */
export interface Processor<Context> {
  readonly name: string;
  readonly topics: readonly string[];
  handle(batch: readonly BusEvent[], context: Context): Promise<void>;
  /** Messages handed over together, at most (the bus's default when absent). */
  readonly maxBatchSize?: number;
  /** For a processor whose work outlives `handle` (it hands events to its own pool): resolves once that work is done. */
  whenIdle?(): Promise<void>;
}

/**
 * The id and revision of the store event behind `event`, for work that names or re-reads it. A processor
 * asks this only of topics the relay feeds, where both are always present: a message without them is not
 * a relayed event, and is refused rather than named '' (every such message would then share one name).
 */
export function storedEventOf(event: Pick<BusEvent, 'id' | 'revision' | 'type' | 'message'>): {
  readonly id: string;
  readonly revision: bigint;
} {
  if (event.id === null || event.revision === null) {
    const { topic, partition, offset } = event.message;
    throw new Error(`${event.type} at ${topic}[${partition}]@${offset} is not a relayed event: it has no event id or stream revision`);
  }
  return { id: event.id, revision: event.revision };
}
