/** Time is a port so that deciders and processors are deterministic under test and replay. */
export interface Clock {
  now(): Date;
  /**
   * Starts a one-shot timer of `ms` on this clock and returns its cancel. Absent: a real timer
   * (commands/clock-timer.ts). A test clock fires it when the test moves its time.
   */
  timer?(ms: number, fire: () => void): () => void;
}
