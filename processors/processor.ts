import type { ConsumedMessage } from '../domain/ports/message-bus.port.js';

/** A relayed event as processors see it. */
export interface BusEvent {
  readonly id: string;
  readonly type: string;
  readonly streamId: string;
  readonly revision: bigint;
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
  /** For a processor whose work outlives `handle` (it hands events to its own pool): resolves once that work is done. */
  whenIdle?(): Promise<void>;
}
