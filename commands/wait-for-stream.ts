import { startTimer } from './clock-timer.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { StreamChanges } from '../domain/ports/stream-changes.port.js';

/** What a wait needs: the clock (its timers, so tests drive the wait) and, in a served process, the stream wakes. */
export interface WaitDeps {
  readonly clock: Clock;
  readonly changes?: StreamChanges;
}

/** Without stream wakes, re-reads back off from 5 ms to 100 ms. */
const FIRST_PAUSE_MS = 5;
const MAX_PAUSE_MS = 100;
/** With stream wakes, a re-read every second all the same: a lagging projection runner delays a wake, it never loses the answer. */
const WOKEN_REREAD_MS = 1_000;

/**
 * The one way a command waits for a stream's state: reads it until `done`, or `waitMs` has passed on the
 * clock, and returns the last state read (the caller decides what a state that is not done means).
 * Between reads it sleeps until the stream changes (`changes`), or on a backoff when there is no wake.
 */
export async function waitForStream<S>(
  deps: WaitDeps,
  input: { streamId: string; read: () => Promise<S>; done: (state: S) => boolean; waitMs: number },
): Promise<S> {
  const deadline = deps.clock.now().getTime() + input.waitMs;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(Math.ceil(pause * 1.5), MAX_PAUSE_MS)) {
    const change = deps.changes?.next(input.streamId);
    try {
      const state = await input.read();
      const left = deadline - deps.clock.now().getTime();
      if (input.done(state) || left <= 0) return state;
      await sleepUnless(deps.clock, Math.min(change ? WOKEN_REREAD_MS : pause, left), change?.changed);
    } finally {
      change?.cancel();
    }
  }
}

/** Sleeps `ms` on the clock's timer, or less when `wake` resolves first; the timer never outlives the sleep. */
export async function sleepUnless(clock: Clock, ms: number, wake?: Promise<void>): Promise<void> {
  let cancel: () => void = () => undefined;
  const elapsed = new Promise<void>((resolve) => {
    cancel = startTimer(clock, ms, resolve);
  });
  try {
    await (wake ? Promise.race([elapsed, wake]) : elapsed);
  } finally {
    cancel();
  }
}
