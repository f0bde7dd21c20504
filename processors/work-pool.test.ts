import { describe, expect, it } from 'vitest';
import { createWorkPool } from './work-pool.js';

const held = () => {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
};

describe('work pool', () => {
  it('runs up to its limit at once; a further admission waits for a slot, then starts', async () => {
    const pool = createWorkPool(2, () => undefined);
    const [a, b] = [held(), held()];
    const started: string[] = [];
    await pool.admit(async () => {
      started.push('a');
      await a.promise;
    });
    await pool.admit(async () => {
      started.push('b');
      await b.promise;
    });
    let thirdAdmitted = false;
    const third = pool.admit(async () => void started.push('c')).then(() => (thirdAdmitted = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(thirdAdmitted).toBe(false);
    expect(pool.running).toBe(2);
    b.release();
    await third;
    expect(thirdAdmitted).toBe(true);
    expect(pool.running).toBeLessThanOrEqual(2);
    a.release();
    await pool.whenIdle();
    expect(pool.running).toBe(0);
    expect(started.sort()).toEqual(['a', 'b', 'c']);
  });

  it('a failing task is reported and frees its slot', async () => {
    const errors: unknown[] = [];
    const pool = createWorkPool(1, (error) => errors.push(error));
    await pool.admit(async () => {
      throw new Error('boom');
    });
    await pool.admit(async () => undefined);
    await pool.whenIdle();
    expect(errors).toEqual([new Error('boom')]);
  });
});
