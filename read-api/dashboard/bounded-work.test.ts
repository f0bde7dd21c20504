import { describe, expect, it } from 'vitest';
import { createBoundedWork } from './bounded-work.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('bounded work', () => {
  it('runs at most maxConcurrent jobs, queues maxQueued more, and refuses the rest at once', async () => {
    const work = createBoundedWork({ maxConcurrent: 2, maxQueued: 3 });
    const release = gate();
    let running = 0;
    let peak = 0;
    const job = async () => {
      running++;
      peak = Math.max(peak, running);
      await release.opened;
      running--;
      return 'done';
    };
    const outcomes = Array.from({ length: 10 }, () => work.run(job));
    await new Promise((resolve) => setImmediate(resolve));
    expect([work.running, work.queued]).toEqual([2, 3]);
    release.open();
    const results = await Promise.all(outcomes);
    expect(results.filter((r) => r?.value === 'done')).toHaveLength(5);
    expect(results.filter((r) => r === null)).toHaveLength(5);
    expect(peak).toBe(2);
    expect([work.running, work.queued]).toEqual([0, 0]);
  });

  it('frees the slot of a job that throws', async () => {
    const work = createBoundedWork({ maxConcurrent: 1, maxQueued: 0 });
    await expect(work.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await work.run(async () => 7)).toEqual({ value: 7 });
  });
});
