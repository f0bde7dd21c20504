import { present } from '../domain/shared/present.js';
import { comparePositions, type Position } from '../domain/ports/event-store.port.js';

/** Promises that resolve once a runner has processed up to a position (tests never sleep). */
export function createPositionWaiters() {
  let processed: Position | null = null;
  const waiting: { target: Position; resolve: () => void }[] = [];
  return {
    get processed() {
      return processed;
    },
    advance(position: Position) {
      processed = position;
      for (let i = waiting.length - 1; i >= 0; i--) {
        if (comparePositions(present(waiting[i], 'i counts down from the last waiter').target, position) <= 0)
          present(waiting.splice(i, 1)[0], 'i is a waiter still in the list').resolve();
      }
    },
    until(target: Position | null): Promise<void> {
      if (target === null || (processed && comparePositions(target, processed) <= 0)) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ target, resolve }));
    },
  };
}
