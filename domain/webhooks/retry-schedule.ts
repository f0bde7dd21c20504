/**
 * When a failed delivery is tried again. The first steps of the Standard Webhooks example schedule:
 * attempt 1 at once, then 5 s, 5 min, 30 min and 2 h after the previous failure; attempt 5 is the
 * give-up boundary (about 2 h 35 min after the first try). Each delay gets up to 10 % of jitter so that
 * the receivers of a burst that failed together are not retried in lockstep; the jitter is derived from
 * the delivery id, so replaying a decision gives the same time.
 *
 * `scale` multiplies every delay (WEBHOOK_RETRY_SCALE, default 1): tests run the schedule in
 * milliseconds with the same code.
 */
export const MAX_ATTEMPTS = 5;

/** The spec: the receiver must answer 2xx within 10 seconds. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Delay before attempt 2, 3, 4, 5, counted from the failure of the attempt before. */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000];

const JITTER = 0.1;

/** FNV-1a, 32 bits: a stable, well-spread number from a string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Milliseconds to wait before `nextAttempt` (2..MAX_ATTEMPTS). */
export function retryDelayMs(nextAttempt: number, deliveryId: string, scale = 1): number {
  const base = RETRY_DELAYS_MS[nextAttempt - 2];
  if (base === undefined) throw new Error(`no retry before attempt ${nextAttempt}`);
  const jitter = (fnv1a(`${deliveryId}:${nextAttempt}`) / 0x1_0000_0000) * JITTER;
  return Math.round(base * scale * (1 + jitter));
}
