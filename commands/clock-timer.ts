import type { Clock } from '../domain/ports/clock.port.js';

/** A one-shot timer on `clock` (a real, unref'd timer when the clock has none); returns its cancel. */
export function startTimer(clock: Clock, ms: number, fire: () => void): () => void {
  if (clock.after) return clock.after(ms, fire);
  const handle = setTimeout(fire, Math.max(0, ms));
  handle.unref();
  return () => clearTimeout(handle);
}
