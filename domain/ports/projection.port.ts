import type { RecordedEvent } from './event-store.port.js';
import type { Doc } from './read-store.port.js';

/**
 * A read model: which events it folds, which document each event touches, and how. `evolve` is pure;
 * the runner applies it through the read store's position guard, so replays and duplicates are no-ops.
 */
export interface Projection<D extends Doc = Doc> {
  readonly name: string;
  readonly collection: string;
  readonly indexes?: readonly string[];
  readonly handles: readonly string[];
  /** The document the event updates, or null when it touches none. */
  idOf(event: RecordedEvent): string | null;
  evolve(current: D | null, event: RecordedEvent): D | null;
}

export function defineProjection<D extends Doc>(projection: Projection<D>): Projection<D> {
  return projection;
}
