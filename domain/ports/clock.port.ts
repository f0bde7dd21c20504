/** Time is a port so that deciders and processors are deterministic under test and replay. */
export interface Clock {
  now(): Date;
  /**
   * Calls `fire` once, `ms` from now, unless the returned cancel runs first. Waiting is time too: a test
   * clock fires these when it is advanced, so no test sleeps. Optional so that a clock that only tells
   * the time stays one; waiters then fall back to the system timer (commands/clock-timer.ts).
   */
  after?(ms: number, fire: () => void): () => void;
}
