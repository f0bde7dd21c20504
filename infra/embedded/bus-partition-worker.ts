import { present } from '../../domain/shared/present.js';
import type { ConsumedMessage } from '../../domain/ports/message-bus.port.js';
import type { BusPartition, StoredMessage } from './bus-partition.js';

/**
 * Hands one topic-partition to one consumer, Kafka style: batches from the committed offset, the commit
 * after `handle` resolves, the same batch again after a failure, and after `maxAttempts` failures the
 * batch's first message to the dead-letter topic. It sleeps between messages and is woken by appends
 * (no polling). A commit's fsync overlaps the next batch (as kafkajs commits while fetching), so a live
 * message is handed over without waiting for the previous commit; a failed commit rewinds to the last
 * durable one and redelivers, which at-least-once allows. A head message whose `notBefore` lies ahead holds back its whole partition until then,
 * as a Kafka retry topic's consumer pauses on it: later messages of other keys wait, but only that long.
 */

export interface WorkerOptions {
  readonly maxBatchSize: number;
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly handle: (batch: readonly ConsumedMessage[]) => Promise<void>;
  /** Persists `offset` (the next one to hand over) as this partition's committed offset. */
  readonly commit: (offset: number) => Promise<void>;
  readonly deadLetter: (message: ConsumedMessage, error: unknown) => Promise<void>;
  readonly onCommitted: () => void;
}

/** setTimeout's largest delay; a later `notBefore` is simply checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class PartitionWorker {
  private stopping = false;
  /** The batch that failed and is due again: its first offset and size. */
  private failing: { from: number; count: number } | null = null;
  private failures = 0;
  /** The next offset to hand over: ahead of `committed` while a commit is being written. */
  private position: number;
  private lastCommit: Promise<void> = Promise.resolve();
  private commitFailed: unknown;
  private wakeAlways: (() => void) | null = null;
  private wakeOnAppend: (() => void) | null = null;
  private readonly unsubscribe: () => void;
  private readonly done: Promise<void>;

  constructor(
    readonly partition: BusPartition,
    /** The durably committed offset: everything before it has been handled. */
    public committed: number,
    private readonly options: WorkerOptions,
  ) {
    this.position = committed;
    this.unsubscribe = partition.onAppend(() => this.wakeOnAppend?.());
    this.done = this.run();
  }

  /** Lets the batch in flight finish (and commit), then ends. */
  stop(): Promise<void> {
    this.stopping = true;
    this.wakeAlways?.();
    return this.done;
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopping) {
        try {
          await this.step();
        } catch {
          // Reading, dead-lettering or committing failed: try again after the delay, as kafkajs restarts a
          // crashed consumer. Nothing is skipped: offsets only move once a step has succeeded.
          await this.sleep(this.options.retryDelayMs, false);
        }
      }
    } finally {
      this.unsubscribe();
      await this.lastCommit;
    }
  }

  private async step(): Promise<void> {
    if (this.commitFailed !== undefined) {
      const error = this.commitFailed;
      this.commitFailed = undefined;
      this.rewind(this.committed);
      throw error;
    }
    const batch = this.failing === null ? await this.fetch() : await this.readRange(this.failing.from, this.failing.count);
    if (batch.length === 0 || this.stopping) return;
    const attempt = this.failures + 1;
    const consumed = batch.map((m) => this.consumed(m, attempt));
    try {
      await this.options.handle(consumed);
    } catch (error) {
      this.failures = attempt;
      this.failing = { from: present(batch[0], 'a batch is handled only when it holds a message').offset, count: batch.length };
      if (attempt < this.options.maxAttempts) return this.sleep(this.options.retryDelayMs, false);
      await this.options.deadLetter(present(consumed[0], 'one consumed message per batch entry'), error);
      return this.advance(present(batch[0], 'a batch is handled only when it holds a message').offset + 1);
    }
    return this.advance(present(batch[batch.length - 1], 'a batch is handled only when it holds a message').offset + 1);
  }

  private rewind(position: number): void {
    this.position = position;
    this.failing = null;
    this.failures = 0;
  }

  private advance(next: number): void {
    this.rewind(next);
    this.lastCommit = this.options.commit(next).then(
      () => {
        if (next <= this.committed) return;
        this.committed = next;
        this.options.onCommitted();
      },
      (error: unknown) => {
        this.commitFailed = error;
        this.wakeAlways?.();
      },
    );
  }

  /** The due messages from the committed offset on; empty after having waited for an append or a due time. */
  private async fetch(): Promise<StoredMessage[]> {
    const end = Math.min(this.partition.end, this.position + this.options.maxBatchSize);
    if (this.position >= end) {
      await this.sleep(undefined, true);
      return [];
    }
    const now = Date.now();
    const batch: StoredMessage[] = [];
    for (let offset = this.position; offset < end; offset += 1) {
      const message = await this.partition.read(offset);
      if (message.notBefore !== undefined && message.notBefore > now) {
        if (batch.length === 0) await this.sleep(Math.min(message.notBefore - now, MAX_TIMER_MS), false);
        break;
      }
      batch.push(message);
    }
    return batch;
  }

  /** Read afresh for a redelivery, so a handler that mutated a message does not see its own changes. */
  private async readRange(from: number, count: number): Promise<StoredMessage[]> {
    const batch: StoredMessage[] = [];
    for (let offset = from; offset < from + count; offset += 1) batch.push(await this.partition.read(offset));
    return batch;
  }

  private consumed(message: StoredMessage, attempt: number): ConsumedMessage {
    const { offset, ...rest } = message;
    return { ...rest, topic: this.partition.topic, partition: this.partition.index, offset: BigInt(offset), attempt };
  }

  /** Resolves after `ms` (never, if undefined), on stop or a failed commit, and on an append when `untilAppend`. */
  private sleep(ms: number | undefined, untilAppend: boolean): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakeAlways = null;
        this.wakeOnAppend = null;
        resolve();
      };
      const timer = ms === undefined ? undefined : setTimeout(wake, ms);
      this.wakeAlways = wake;
      if (untilAppend) this.wakeOnAppend = wake;
    });
  }
}
