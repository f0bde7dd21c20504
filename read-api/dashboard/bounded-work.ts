/**
 * Runs at most `maxConcurrent` jobs at once and keeps at most `maxQueued` waiting; beyond that `run` answers
 * `null` at once instead of growing the queue. The login's password checks go through one, so a flood of
 * logins costs a bounded amount of CPU and memory (scrypt N=2^17 holds 128 MiB while it runs).
 */
export interface BoundedWork {
  run<T>(job: () => Promise<T>): Promise<{ value: T } | null>;
  readonly running: number;
  readonly queued: number;
}

export function createBoundedWork(options: { maxConcurrent: number; maxQueued: number }): BoundedWork {
  let running = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  return {
    async run(job) {
      if (running >= options.maxConcurrent) {
        if (waiting.length >= options.maxQueued) return null;
        // The finishing job hands its slot straight to this one, so `running` stays counted.
        await new Promise<void>((resume) => waiting.push(resume));
      } else {
        running++;
      }
      try {
        return { value: await job() };
      } finally {
        release();
      }
    },
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
  };
}
