import { present } from '../../domain/shared/present.js';
import type { Clock } from '../../domain/ports/clock.port.js';

/**
 * Limits logins: at most `maxFailures` per email address and `4 × maxFailures` per client address within a
 * sliding window, so guessing one account's password and spraying many accounts from one address are both
 * slowed to a crawl. An attempt is counted when it is *reserved*, before the slow password check, so
 * concurrent attempts cannot slip past the limit while earlier ones are still hashing; a success gives its
 * reservation back. In memory, per process: a restart forgets, which only ever lets a legitimate user back
 * in sooner.
 */
export interface LoginThrottle {
  /** Milliseconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfterMs(email: string, ip: string): number;
  /** Counts the attempt now, or says how long to wait; the caller settles the reservation when it knows. */
  reserve(email: string, ip: string): LoginReservation | { retryAfterMs: number };
}

export interface LoginReservation {
  /** The password was right: the attempt stops counting and the email's earlier failures are forgotten. */
  succeeded(): void;
  /** The password was wrong: the attempt keeps counting (nothing to do, said for the reader). */
  failed(): void;
  /** The attempt was never checked (the server was busy): it stops counting. */
  cancel(): void;
}

/** Keys tracked at most; beyond it the oldest are forgotten, so a flood cannot grow the map. */
const MAX_TRACKED = 10_000;

export function createLoginThrottle(options: { clock: Clock; maxFailures: number; windowMs: number }): LoginThrottle {
  const attempts = new Map<string, number[]>();
  const keysOf = (email: string, ip: string) => [`email:${email.toLowerCase()}`, `ip:${ip}`] as const;
  const limits = (email: string, ip: string) => {
    const [emailKey, ipKey] = keysOf(email, ip);
    return [
      [emailKey, options.maxFailures],
      [ipKey, options.maxFailures * 4],
    ] as const;
  };

  function recent(key: string, now: number): number[] {
    const kept = (attempts.get(key) ?? []).filter((t) => now - t < options.windowMs);
    if (kept.length === 0) attempts.delete(key);
    else attempts.set(key, kept);
    return kept;
  }

  function waitMs(email: string, ip: string, now: number): number {
    let wait = 0;
    for (const [key, max] of limits(email, ip)) {
      const times = recent(key, now);
      if (times.length >= max)
        wait = Math.max(wait, present(times[times.length - max], 'times[times.length - max]') + options.windowMs - now);
    }
    return wait;
  }

  function forgetOne(key: string, at: number): void {
    const times = attempts.get(key);
    const index = times?.indexOf(at) ?? -1;
    if (index < 0) return;
    present(times, 'times').splice(index, 1);
    if (present(times, 'times').length === 0) attempts.delete(key);
  }

  function keepBounded(now: number): void {
    if (attempts.size < MAX_TRACKED) return;
    for (const key of [...attempts.keys()]) recent(key, now);
    for (const key of attempts.keys()) {
      if (attempts.size < MAX_TRACKED) break;
      attempts.delete(key);
    }
  }

  return {
    retryAfterMs(email, ip) {
      return waitMs(email, ip, options.clock.now().getTime());
    },
    reserve(email, ip) {
      const now = options.clock.now().getTime();
      const wait = waitMs(email, ip, now);
      if (wait > 0) return { retryAfterMs: wait };
      keepBounded(now);
      const keys = keysOf(email, ip);
      for (const key of keys) attempts.set(key, [...recent(key, now), now]);
      let settled = false;
      const settle = (forget: readonly string[]) => {
        if (settled) return;
        settled = true;
        for (const key of forget) forgetOne(key, now);
      };
      return {
        succeeded: () => {
          settle([keys[1]]);
          attempts.delete(keys[0]);
        },
        failed: () => settle([]),
        cancel: () => settle(keys),
      };
    },
  };
}
