/**
 * At most `limit` tasks at once, each independent of the others: a slow one holds only its own slot.
 * `admit` resolves once the task has started (so a caller feeding it from a bus waits while every slot
 * is busy: the queue in front of the pool is the bus itself, bounded); `whenIdle` once nothing runs.
 */
export interface WorkPool {
  admit(task: () => Promise<void>): Promise<void>;
  whenIdle(): Promise<void>;
  readonly running: number;
}

export function createWorkPool(limit: number, onError: (error: unknown) => void): WorkPool {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new Error(`a work pool needs a positive limit, not ${limit}`);
  let running = 0;
  /** Admissions waiting for a slot; a finishing task hands its slot straight to the first. */
  const waiting: (() => void)[] = [];
  let idle: (() => void)[] = [];

  const finished = () => {
    const next = waiting.shift();
    if (next) return next();
    running--;
    if (running === 0) {
      for (const resolve of idle) resolve();
      idle = [];
    }
  };

  return {
    async admit(task) {
      if (running < limit) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      void Promise.resolve().then(task).catch(onError).finally(finished);
    },
    whenIdle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))),
    get running() {
      return running;
    },
  };
}
