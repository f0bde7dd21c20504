import type { Clock } from '../../domain/ports/clock.port.js';

/** A clock tests move by hand: `advance` fires the timers that fall due, in order, so no test sleeps. */
export function manualClock(start = '2026-05-12T10:00:00.000Z') {
  let now = Date.parse(start);
  let seq = 0;
  const timers = new Map<number, { at: number; fire: () => void }>();
  const clock: Clock & { advance(ms: number): Promise<void>; pending(): number } = {
    now: () => new Date(now),
    after(ms, fire) {
      const id = seq++;
      timers.set(id, { at: now + Math.max(0, ms), fire });
      return () => timers.delete(id);
    },
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        // Let the waits started or woken so far reach their next timer before looking for due ones.
        await settle();
        const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].fire();
      }
      now = until;
      await settle();
    },
    pending: () => timers.size,
  };
  return clock;
}

/** Lets promise continuations (and the awaits they chain) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
