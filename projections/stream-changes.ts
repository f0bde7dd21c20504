import type { RecordedEvent } from '../domain/ports/event-store.port.js';
import type { StreamChanges } from '../domain/ports/stream-changes.port.js';

/**
 * The stream wakes of this process, fed by its projection runner (an in-process sink with no history:
 * only waiters registered since the start matter). `handles` lists the event types whose streams
 * commands wait on; a wake for an event type not listed would never come, and the waiter re-reads on
 * its own timer (commands/wait-for-stream.ts). Bounded by the waits in flight: every waiter is
 * cancelled when its wait ends.
 */
export interface StreamChangesSink extends StreamChanges {
  readonly handles: readonly string[];
  readonly history: 'none';
  apply(event: Pick<RecordedEvent, 'streamId'>): void;
  /** Waiters registered now (tests: nothing leaks). */
  waiting(): number;
}

export function createStreamChanges(handles: readonly string[]): StreamChangesSink {
  const waiting = new Map<string, Set<() => void>>();
  return {
    handles,
    history: 'none',
    apply(event) {
      const wakers = waiting.get(event.streamId);
      if (!wakers) return;
      waiting.delete(event.streamId);
      wakers.forEach((wake) => wake());
    },
    next(streamId) {
      let wake: () => void = () => undefined;
      const changed = new Promise<void>((resolve) => {
        wake = resolve;
      });
      const wakers = waiting.get(streamId) ?? new Set<() => void>();
      wakers.add(wake);
      waiting.set(streamId, wakers);
      return {
        changed,
        cancel() {
          const current = waiting.get(streamId);
          current?.delete(wake);
          if (current?.size === 0) waiting.delete(streamId);
        },
      };
    },
    waiting: () => [...waiting.values()].reduce((sum, set) => sum + set.size, 0),
  };
}
