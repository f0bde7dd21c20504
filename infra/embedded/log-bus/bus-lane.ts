import type { BusMessage, ConsumedMessage } from '../../../domain/ports/message-bus.port.js';

/**
 * One topic-partition of a consumer group on the log bus, Kafka style: messages handed over in read order,
 * in batches of at most `maxBatchSize`; a throwing handler gets the same batch again after `retryDelayMs`,
 * with the attempt number incremented, and after `maxAttempts` failures the batch's first message goes to
 * the dead-letter topic, so a poison message never blocks its partition. A head message whose `notBefore`
 * lies ahead holds back its partition until then (as a Kafka retry topic's consumer pauses on it): the
 * other partitions and topics go on.
 */

export interface LaneEntry {
  /** The key of the event in the group's LowWatermark. */
  readonly mark: string;
  readonly offset: bigint;
  readonly message: BusMessage;
}

export interface LaneOptions {
  readonly topic: string;
  readonly partition: number;
  readonly maxBatchSize: number;
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly handle: (batch: readonly ConsumedMessage[]) => Promise<void>;
  readonly deadLetter: (message: ConsumedMessage, error: unknown) => Promise<void>;
  /** Called once per entry, after it is handled or dead-lettered. */
  readonly done: (entries: readonly LaneEntry[]) => void;
}

/** setTimeout's largest delay; a later `notBefore` is simply checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class BusLane {
  private readonly queue: LaneEntry[] = [];
  private failures = 0;
  /** How many head entries the failing batch holds (it is handed over again as it was). */
  private failingCount = 0;
  private stopping = false;
  private wake: (() => void) | null = null;
  private wakeOnPush: (() => void) | null = null;
  private readonly done: Promise<void>;

  constructor(private readonly options: LaneOptions) {
    this.done = this.run();
  }

  push(entry: LaneEntry): void {
    this.queue.push(entry);
    this.wakeOnPush?.();
  }

  /** Lets the batch in flight finish, then ends. */
  stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    return this.done;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.step();
      } catch {
        // Dead-lettering failed: the batch stays at the head and is tried again after the delay.
        await this.sleep(this.options.retryDelayMs, false);
      }
    }
  }

  private async step(): Promise<void> {
    const batch = this.failingCount > 0 ? this.queue.slice(0, this.failingCount) : this.dueBatch();
    if (batch.length === 0) return this.sleep(this.untilDue(), true);
    const attempt = this.failures + 1;
    const consumed = batch.map((entry) => this.consumed(entry, attempt));
    try {
      await this.options.handle(consumed);
    } catch (error) {
      this.failures = attempt;
      this.failingCount = batch.length;
      if (attempt < this.options.maxAttempts) return this.sleep(this.options.retryDelayMs, false);
      await this.options.deadLetter(consumed[0] as ConsumedMessage, error);
      return this.complete(1);
    }
    return this.complete(batch.length);
  }

  private complete(count: number): void {
    this.failures = 0;
    this.failingCount = 0;
    this.options.done(this.queue.splice(0, count));
  }

  /** The leading messages that are due now, at most maxBatchSize. */
  private dueBatch(): LaneEntry[] {
    const now = Date.now();
    const batch: LaneEntry[] = [];
    for (const entry of this.queue) {
      if (batch.length >= this.options.maxBatchSize) break;
      if (entry.message.notBefore !== undefined && entry.message.notBefore > now) break;
      batch.push(entry);
    }
    return batch;
  }

  /** How long until the head message is due; undefined (until a push) when the lane is empty. */
  private untilDue(): number | undefined {
    const head = this.queue[0];
    if (head === undefined) return undefined;
    return Math.min(Math.max(0, (head.message.notBefore ?? 0) - Date.now()), MAX_TIMER_MS);
  }

  private consumed(entry: LaneEntry, attempt: number): ConsumedMessage {
    return { ...entry.message, topic: this.options.topic, partition: this.options.partition, offset: entry.offset, attempt };
  }

  /** Resolves after `ms` (never, if undefined), on stop, and on a push when `untilPush`. */
  private sleep(ms: number | undefined, untilPush: boolean): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => wake(), ms);
      const wake = (): void => {
        clearTimeout(timer);
        this.wake = null;
        this.wakeOnPush = null;
        resolve();
      };
      this.wake = wake;
      if (untilPush) this.wakeOnPush = wake;
    });
  }
}
