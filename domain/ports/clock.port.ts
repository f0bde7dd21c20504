/** Time is a port so that deciders and processors are deterministic under test and replay. */
export interface Clock {
  now(): Date;
}
