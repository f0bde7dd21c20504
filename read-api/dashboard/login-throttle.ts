import { present } from '../../domain/shared/present.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import { clientGroup } from '../x402/client-address.js';

/**
 * Slows login guessing without letting anyone lock an owner out (OWASP's authentication guidance: throttle,
 * with growing delays, rather than lock the account). Failures are counted per (email, client address) and
 * per client address, over a sliding window. Each has a free allowance (`maxFailures` for a pair, 4 ×
 * `maxFailures` for an address across every email); past it every further failure doubles the wait before the
 * next attempt: 1 s, 2 s, 4 s, … up to the window. Nothing is counted per email alone, so failures from
 * elsewhere never keep the owner out; the price is that guesses spread over many addresses are only slowed
 * per address. An IPv6 client counts by its /64 (one subscriber's prefix), as the x402 rate limit does.
 *
 * An attempt is counted when it is *reserved*, before the slow password check, so concurrent attempts cannot
 * slip past the allowance while earlier ones are still hashing; a success gives its reservation back and
 * forgets the pair's failures. In memory, per process: a restart forgets, which only ever lets a legitimate
 * user back in sooner.
 */
export interface LoginThrottle {
  /** Milliseconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfterMs(email: string, ip: string): number;
  /** Counts the attempt now, or says how long to wait; the caller settles the reservation when it knows. */
  reserve(email: string, ip: string): LoginReservation | { retryAfterMs: number };
}

export interface LoginReservation {
  /** The password was right: the attempt stops counting and the pair's earlier failures are forgotten. */
  succeeded(): void;
  /** The password was wrong: the attempt keeps counting (nothing to do, said for the reader). */
  failed(): void;
  /** The attempt was never checked (the server was busy): it stops counting. */
  cancel(): void;
}

/** The first wait past the free allowance; each further failure doubles it, up to the window. */
export const FIRST_DELAY_MS = 1_000;
/** An address may fail this many times the pair's allowance, across emails, before it waits. */
export const ADDRESS_ALLOWANCE_FACTOR = 4;
/** Keys tracked at most; beyond it the least recently failed are forgotten, so a flood cannot grow the map. */
const MAX_TRACKED = 10_000;

/** The wait after the last of `failures` recent failures, given `allowance` free ones. */
export function growingDelayMs(failures: number, allowance: number, windowMs: number): number {
  if (failures < allowance) return 0;
  return Math.min(windowMs, FIRST_DELAY_MS * 2 ** Math.min(failures - allowance, 40));
}

export function createLoginThrottle(options: { clock: Clock; maxFailures: number; windowMs: number }): LoginThrottle {
  /** Per key, the times of its failures (and reservations still being checked) within the window, oldest first. */
  const failures = new Map<string, number[]>();
  const keysOf = (email: string, ip: string) => {
    const client = clientGroup(ip);
    return [
      [`pair:${email.toLowerCase()}|${client}`, options.maxFailures],
      [`address:${client}`, options.maxFailures * ADDRESS_ALLOWANCE_FACTOR],
    ] as const;
  };

  function recent(key: string, now: number): number[] {
    const kept = (failures.get(key) ?? []).filter((t) => now - t < options.windowMs);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  }

  function waitMs(email: string, ip: string, now: number): number {
    let wait = 0;
    for (const [key, allowance] of keysOf(email, ip)) {
      const times = recent(key, now);
      const last = times[times.length - 1];
      if (last !== undefined) wait = Math.max(wait, last + growingDelayMs(times.length, allowance, options.windowMs) - now);
    }
    return wait;
  }

  function count(key: string, now: number): void {
    const times = recent(key, now);
    failures.delete(key); // re-inserted last: the map's order is the order of recent failure
    failures.set(key, [...times, now]);
    if (failures.size > MAX_TRACKED) failures.delete(present(failures.keys().next().value, 'the oldest key'));
  }

  function forgetOne(key: string, at: number): void {
    const times = failures.get(key);
    const index = times?.indexOf(at) ?? -1;
    if (index < 0) return;
    present(times, 'indexOf found the time above, so the key has its list').splice(index, 1);
    if (present(times, 'indexOf found the time above, so the key has its list').length === 0) failures.delete(key);
  }

  return {
    retryAfterMs(email, ip) {
      return waitMs(email, ip, options.clock.now().getTime());
    },
    reserve(email, ip) {
      const now = options.clock.now().getTime();
      const wait = waitMs(email, ip, now);
      if (wait > 0) return { retryAfterMs: wait };
      const [[pair], [address]] = keysOf(email, ip);
      count(pair, now);
      count(address, now);
      let settled = false;
      const settle = (forget: readonly string[]) => {
        if (settled) return;
        settled = true;
        for (const key of forget) forgetOne(key, now);
      };
      return {
        succeeded: () => {
          settle([address]);
          failures.delete(pair);
        },
        failed: () => settle([]),
        cancel: () => settle([pair, address]),
      };
    },
  };
}
