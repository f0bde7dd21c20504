import type { RecordedEvent } from '../domain/ports/event-store.port.js';
import { INSPECT_TERMINAL_EVENTS, inspectStreams } from '../domain/inspect/inspect.events.js';

/**
 * Wakes the requests waiting for an inspect to finish. Fed by the projection runner (an in-process
 * sink, in every process that serves the API), so a POST holds no polling loop: it waits for the
 * inspect's terminal event or its own deadline, whichever comes first.
 */
export interface InspectCompletions {
  readonly handles: readonly string[];
  /** Wakes only this process's waiters: nothing from before the start matters. */
  readonly history: 'none';
  apply(event: Pick<RecordedEvent, 'type' | 'streamId'>): void;
  /**
   * Resolves true when the inspect finishes, false after `timeoutMs`. Register BEFORE reading the
   * inspect's state, so a finish between the read and the wait is not missed; `cancel` frees the waiter.
   */
  next(checkId: string, timeoutMs: number): { finished: Promise<boolean>; cancel(): void };
}

export function createInspectCompletions(): InspectCompletions {
  const waiting = new Map<string, Set<(finished: boolean) => void>>();

  return {
    handles: INSPECT_TERMINAL_EVENTS,
    history: 'none',
    apply(event) {
      const checkId = inspectStreams.idOf(event.streamId);
      if (checkId === null) return;
      const wakers = waiting.get(checkId);
      waiting.delete(checkId);
      wakers?.forEach((wake) => wake(true));
    },
    next(checkId, timeoutMs) {
      let wake: (finished: boolean) => void = () => undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const forget = () => {
        clearTimeout(timer);
        const wakers = waiting.get(checkId);
        wakers?.delete(wake);
        if (wakers?.size === 0) waiting.delete(checkId);
      };
      const finished = new Promise<boolean>((resolve) => {
        wake = (value) => {
          forget();
          resolve(value);
        };
        timer = setTimeout(() => wake(false), Math.max(0, timeoutMs));
      });
      waiting.set(checkId, (waiting.get(checkId) ?? new Set()).add(wake));
      return { finished, cancel: () => wake(false) };
    },
  };
}
