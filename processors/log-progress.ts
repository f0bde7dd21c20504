import type { Position } from '../domain/ports/event-store.port.js';

/** How far a runner that follows `$all` (projections, the relay) has got: metrics compare it with the head. */
export interface LogProgress {
  /** Position of the last event processed; null before the first (or the checkpoint's, after a restart). */
  readonly position: Position | null;
  /** When that event was recorded in the log; null when none was processed by this process yet. */
  readonly recordedAt: Date | null;
}
