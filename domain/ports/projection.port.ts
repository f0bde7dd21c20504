import { eventRegistry, type EventOf, type EventType } from '../events/registry.js';
import type { RecordedEvent } from './event-store.port.js';
import type { Doc, IndexSpec } from './read-store.port.js';

/**
 * A read model: which events it folds, which document each event touches, and how. `evolve` is pure;
 * the runner applies it through the read store's position guard, so replays and duplicates are no-ops.
 */
export interface Projection<D extends Doc = Doc> {
  readonly name: string;
  readonly collection: string;
  readonly indexes?: readonly IndexSpec[];
  readonly handles: readonly string[];
  /** The document the event updates, or null when it touches none. */
  idOf(event: RecordedEvent): string | null;
  evolve(current: D | null, event: RecordedEvent): D | null;
}

/** A projection as written: it names registered types and folds them typed, in their current shape. */
export interface TypedProjection<D extends Doc, Type extends EventType> {
  readonly name: string;
  readonly collection: string;
  readonly indexes?: readonly IndexSpec[];
  readonly handles: readonly Type[];
  idOf(event: EventOf<Type>): string | null;
  evolve(current: D | null, event: EventOf<Type>): D | null;
}

/**
 * The projection the runner drives: each recorded event of a handled type goes through the event
 * registry (upcast to its current shape) before the typed functions see it. Not re-validated here: a
 * schema parse per event would cost a replay several times its folding (see `EventRegistry.read`).
 * An event of another type touches no document.
 */
export function defineProjection<D extends Doc, const Type extends EventType>(projection: TypedProjection<D, Type>): Projection<D> {
  const handles = new Set<string>(projection.handles);
  const typed = (event: RecordedEvent): EventOf<Type> | null => {
    const parsed = eventRegistry.read(event);
    return parsed && isHandled(parsed) ? parsed : null;
  };
  const isHandled = (event: { type: string }): event is EventOf<Type> => handles.has(event.type);
  return {
    name: projection.name,
    collection: projection.collection,
    ...(projection.indexes ? { indexes: projection.indexes } : {}),
    handles: projection.handles,
    idOf(event) {
      const known = typed(event);
      return known ? projection.idOf(known) : null;
    },
    evolve(current, event) {
      const known = typed(event);
      return known ? projection.evolve(current, known) : current;
    },
  };
}
