import type { Position } from '../../domain/ports/event-store.port.js';
import type { CheckpointStore } from '../../domain/ports/read-store.port.js';
import { fail } from '../../domain/shared/errors.js';

/** Compare-and-set on checkpoints; shared by the in-memory and the file checkpoint stores. */
export function samePosition(a: Position | null, b: Position | null): boolean {
  return a === null || b === null ? a === b : a.commit === b.commit && a.prepare === b.prepare;
}

/** For projections whose read models are rebuilt by replay at every start: progress need not survive. */
export function createMemoryCheckpointStore(): CheckpointStore {
  const checkpoints = new Map<string, Position>();
  let closed = false;
  const isOpen = (): void => {
    if (closed) throw fail('store_closed', 'the checkpoint store is closed');
  };
  return {
    async load(name) {
      isOpen();
      return checkpoints.get(name) ?? null;
    },
    async store(name, next, previous) {
      isOpen();
      if (!samePosition(checkpoints.get(name) ?? null, previous)) return 'mismatch';
      checkpoints.set(name, { commit: next.commit, prepare: next.prepare });
      return 'ok';
    },
    async close() {
      closed = true;
    },
  };
}
