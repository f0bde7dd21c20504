import { comparePositions, type Position } from '../../../domain/ports/event-store.port.js';
import type { CheckpointStore } from '../../../domain/ports/read-store.port.js';

/** A commit is written at most this often while nobody waits for it (a restart redelivers the rest). */
const COMMIT_INTERVAL_MS = 500;

/**
 * Writes a consumer group's checkpoint (its LowWatermark) to the CheckpointStore: one write in flight, the
 * newest position wins, at most every COMMIT_INTERVAL_MS unless `whenCommitted` waits for it. A write is a
 * compare-and-set from the last one, so a second consumer of the group fails loudly instead of both moving it.
 */
export class CheckpointCommitter {
  private wanted: Position | null;
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiters: { target: Position; resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly name: string,
    /** The checkpoint as stored. */
    private stored: Position | null,
    private readonly onError: (error: unknown) => void,
  ) {
    this.wanted = stored;
  }

  /** A newer low watermark: written soon. */
  move(position: Position | null): void {
    if (position === null || (this.wanted !== null && comparePositions(position, this.wanted) <= 0)) return;
    this.wanted = position;
    // Someone waits for it (whenCaughtUp): now, not on the timer.
    if (this.waiters.length > 0) return void this.flush();
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, COMMIT_INTERVAL_MS);
  }

  /** Resolves once the stored checkpoint is at or after `target` (the caller sees to it that it gets there). */
  whenCommitted(target: Position): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ target, resolve, reject });
      this.settle();
      void this.flush();
    });
  }

  /** Writes the newest position now, unless it is already stored. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    const next = this.wanted;
    if (next === null || (this.stored !== null && comparePositions(next, this.stored) <= 0)) return;
    this.writing = this.write(next);
    await this.writing;
    this.writing = null;
  }

  /** Fails every waiter: the consumer is gone. */
  close(reason: Error): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const waiter of this.waiters.splice(0)) waiter.reject(reason);
  }

  private async write(next: Position): Promise<void> {
    try {
      if ((await this.checkpoints.store(this.name, next, this.stored)) === 'mismatch')
        throw new Error(`checkpoint ${this.name} was moved by another consumer of the group`);
      this.stored = next;
      this.settle();
    } catch (error) {
      this.onError(error);
      for (const waiter of this.waiters.splice(0)) waiter.reject(error);
    }
  }

  private settle(): void {
    for (const waiter of [...this.waiters]) {
      if (this.stored !== null && comparePositions(this.stored, waiter.target) >= 0) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}
