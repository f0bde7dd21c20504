import type { Consumer } from '../../domain/ports/message-bus.port.js';
import { fail } from '../../domain/shared/errors.js';
import type { PartitionWorker } from './bus-partition-worker.js';

/**
 * A consumer of the embedded bus: one worker per assigned topic-partition, run concurrently (Kafka's
 * `partitionsConsumedConcurrently` set to all), plus the bookkeeping for `whenCaughtUp`.
 */
export class BusConsumer implements Consumer {
  readonly workers: PartitionWorker[] = [];
  private readonly waiters: { targets: Map<PartitionWorker, number>; resolve: () => void; reject: (e: Error) => void }[] = [];
  private stopped: Promise<void> | null = null;

  constructor(private readonly onStopped: () => Promise<void>) {}

  whenCaughtUp(): Promise<void> {
    if (this.stopped !== null) return Promise.reject(fail('invalid_state', 'the consumer is stopped'));
    const targets = new Map(this.workers.map((w) => [w, w.partition.end]));
    return new Promise((resolve, reject) => {
      this.waiters.push({ targets, resolve, reject });
      this.checkCaughtUp();
    });
  }

  /** Called by workers after each durable commit. */
  checkCaughtUp(): void {
    for (const waiter of [...this.waiters]) {
      if ([...waiter.targets].every(([worker, end]) => worker.committed >= end)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      await Promise.all(this.workers.map((w) => w.stop()));
      this.checkCaughtUp();
      for (const waiter of this.waiters.splice(0)) waiter.reject(fail('invalid_state', 'the consumer stopped before catching up'));
      await this.onStopped();
    })();
    return this.stopped;
  }
}
