import type { Clock } from '../../domain/ports/clock.port.js';

export const systemClock: Clock = {
  now: () => new Date(),
  after(ms, fire) {
    const timer = setTimeout(fire, Math.max(0, ms));
    // A pending wait never holds the process open on its own (shutdown does not wait for a client's deadline).
    timer.unref();
    return () => clearTimeout(timer);
  },
};
