import { Worker } from 'node:worker_threads';
import type { Position } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import type { LogProgress } from '../../processors/log-progress.js';
import type { ProjectionRunner } from '../../processors/projection-runner.js';
import { createPositionWaiters } from '../../processors/position-waiters.js';
import type { LmdbEventStore, LogEnd } from './lmdb-event-store.js';
import type { LmdbReadStore } from './lmdb-read-store.js';
import type { FromProjectionThread, ProjectionThreadData, ToProjectionThread } from './projection-thread.messages.js';

/**
 * How often the thread is told of new appends at most when nobody waits for them (a wait tells it at once):
 * as often as it commits its read models. Told every 5 ms, the messages and the wake-ups they cause were
 * about 5 % of the answering thread's busy time under bench:screen (docs/benchmarks.md).
 */
const FOLLOW_INTERVAL_MS = 25;

/**
 * The read models folded on a thread of their own (docs/ARCHITECTURE.md#the-projection-thread): the
 * embedded default's projection runner and its LMDB writes run in a worker thread, off the thread that
 * answers requests and appends. The worker reads the log this process writes (openLmdbEventStoreReader)
 * up to what the writer reports durable, folds it into the same LMDB environment, and reports each
 * position its read models show; this object is the ProjectionRunner the rest of the service waits on.
 * A worker that dies is an error of the service: every wait then rejects, and `onError` is told.
 */
export function startProjectionThread(options: {
  readonly store: LmdbEventStore;
  /** This thread's store of the same LMDB environment: it and the thread's tell each other what they wrote. */
  readonly readStore: LmdbReadStore;
  readonly data: Omit<ProjectionThreadData, 'entry' | 'at'>;
  readonly onError: (error: unknown, where: string) => void;
}): ProjectionRunner {
  const waiters = createPositionWaiters();
  let recordedAt: Date | null = null;
  let read = 0;
  let worker: Worker | null = null;
  let failure: Error | null = null;
  let stopping = false;
  let exited = false;
  let stoppedByWorker: (() => void) | null = null;
  let started: Promise<void> | null = null;
  let stopped: Promise<void> | null = null;
  const failed = new Set<(error: Error) => void>();
  let unfollow = (): void => undefined;
  let unwatch = (): void => undefined;

  /** Waits for `target`, or rejects when the thread has failed (a dead worker would leave it waiting forever). */
  function until(target: Position | null): Promise<void> {
    if (failure) return Promise.reject(failure);
    // Someone reads what was appended: the thread hears of it now rather than at the next interval.
    if (pending !== null) send({ kind: 'follow', at: pending });
    return new Promise((resolve, reject) => {
      failed.add(reject);
      void waiters.until(target).then(() => {
        failed.delete(reject);
        resolve();
      });
    });
  }

  function fatal(error: Error) {
    if (failure) return;
    failure = error;
    options.onError(error, 'projection thread');
    for (const reject of failed) reject(error);
    failed.clear();
  }

  /** At most one follow message every FOLLOW_INTERVAL_MS, however many rounds of appends it covers; at once while a read waits. */
  let pending: LogEnd | null = null;
  const follow = (at: LogEnd) => {
    const waited = failed.size > 0; // one entry per wait in progress (until)
    if (pending === null && !waited) setTimeout(() => pending !== null && send({ kind: 'follow', at: pending }), FOLLOW_INTERVAL_MS);
    pending = at;
    if (waited) send({ kind: 'follow', at });
  };
  const send = (message: ToProjectionThread) => {
    if (message.kind === 'follow') pending = null;
    worker?.postMessage(message);
  };

  return {
    start() {
      started ??= new Promise<void>((resolve, reject) => {
        unfollow = options.store.onAppended(follow);
        // Sent at once, so it reaches the thread before the appends that follow the write (a rebuild's swap, then its end).
        unwatch = options.readStore.onWritten((keys) => send({ kind: 'forget', keys }));
        const data: ProjectionThreadData = {
          ...options.data,
          entry: new URL('./projection-thread.worker.ts', import.meta.url).href,
          at: options.store.durableEnd,
        };
        const spawned = new Worker(new URL('../system/ts-worker.mjs', import.meta.url), { workerData: data });
        worker = spawned;
        spawned.on('message', (message: FromProjectionThread) => {
          switch (message.kind) {
            case 'started':
              if (message.position) waiters.advance(message.position);
              resolve();
              break;
            case 'processed':
              read = message.read;
              recordedAt = message.recordedAt === null ? null : new Date(message.recordedAt);
              options.readStore.forget(message.written);
              waiters.advance(message.position);
              break;
            case 'error':
              options.onError(new Error(message.message), message.where);
              break;
            case 'stopped':
              read = message.read;
              stoppedByWorker?.();
              break;
          }
        });
        spawned.on('error', (error) => {
          reject(error);
          fatal(error);
        });
        spawned.on('exit', (code) => {
          exited = true;
          stoppedByWorker?.();
          const error = fail('internal_error', `the projection thread exited (code ${code})`);
          reject(error);
          if (!stopping) fatal(error);
        });
      });
      return started;
    },
    async whenCaughtUp() {
      await until(options.store.durableEnd.head);
    },
    whenProcessed: (position) => until(position),
    progress: (): LogProgress => ({ position: waiters.processed, recordedAt }),
    eventsRead: () => read,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        unfollow();
        unwatch();
        const running = worker;
        if (running === null || exited) return;
        const done = new Promise<void>((resolve) => (stoppedByWorker = resolve));
        if (pending !== null) send({ kind: 'follow', at: pending });
        running.postMessage({ kind: 'stop' } satisfies ToProjectionThread);
        // The worker committed and closed its stores: whatever still holds its event loop goes with it.
        await done;
        await running.terminate();
      })();
      return stopped;
    },
  };
}
