import type { Clock } from '../../domain/ports/clock.port.js';

/**
 * Limits failed logins: at most `maxFailures` per email address and `4 × maxFailures` per client address
 * within a sliding window, so guessing one account's password and spraying many accounts from one
 * address are both slowed to a crawl. In memory, per process: a restart forgets, which only ever lets a
 * legitimate user back in sooner.
 */
export interface LoginThrottle {
  /** Milliseconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfterMs(email: string, ip: string): number;
  recordFailure(email: string, ip: string): void;
  recordSuccess(email: string): void;
}

const MAX_TRACKED = 10_000;

export function createLoginThrottle(options: { clock: Clock; maxFailures: number; windowMs: number }): LoginThrottle {
  const failures = new Map<string, number[]>();
  const limits = (email: string, ip: string) =>
    [
      [`email:${email.toLowerCase()}`, options.maxFailures],
      [`ip:${ip}`, options.maxFailures * 4],
    ] as const;

  function recent(key: string, now: number): number[] {
    const kept = (failures.get(key) ?? []).filter((t) => now - t < options.windowMs);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  }

  return {
    retryAfterMs(email, ip) {
      const now = options.clock.now().getTime();
      let wait = 0;
      for (const [key, max] of limits(email, ip)) {
        const times = recent(key, now);
        if (times.length >= max) wait = Math.max(wait, times[times.length - max]! + options.windowMs - now);
      }
      return wait;
    },
    recordFailure(email, ip) {
      const now = options.clock.now().getTime();
      if (failures.size >= MAX_TRACKED) for (const key of [...failures.keys()]) recent(key, now);
      for (const [key] of limits(email, ip)) failures.set(key, [...recent(key, now), now]);
    },
    recordSuccess(email) {
      failures.delete(`email:${email.toLowerCase()}`);
    },
  };
}
