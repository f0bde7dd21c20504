import type { Clock } from '../../domain/ports/clock.port.js';
import { fail } from '../../domain/shared/errors.js';
import { isFull, perMinute, takeToken, type Bucket, type BucketRule } from '../../domain/shared/token-bucket.js';
import { clientGroup } from './client-address.js';

/** Buckets kept before refilled ones are forgotten (a full bucket says nothing). */
const SWEEP_AT = 50_000;

/**
 * Per-client token buckets of this process, one set per class of call: `paid` (a request carrying a
 * payment proof, checked before any signature work) and `free` (quotes and the result endpoint). A
 * refusal is `rate_limit_exceeded` with the seconds until a token is back.
 */
export function createRateLimiter(options: { clock: Clock; paidPerMinute: number; freePerMinute: number }) {
  const rules: Record<'paid' | 'free', BucketRule> = { paid: perMinute(options.paidPerMinute), free: perMinute(options.freePerMinute) };
  const buckets = new Map<string, Bucket>();

  function sweep(nowMs: number) {
    for (const [key, bucket] of buckets) {
      if (isFull(rules[key.startsWith('paid|') ? 'paid' : 'free'], bucket, nowMs)) buckets.delete(key);
    }
  }

  return {
    take(kind: 'paid' | 'free', ip: string): void {
      const nowMs = options.clock.now().getTime();
      const key = `${kind}|${clientGroup(ip)}`;
      const taken = takeToken(rules[kind], buckets.get(key), nowMs);
      buckets.set(key, taken.bucket);
      if (buckets.size > SWEEP_AT) sweep(nowMs);
      if (!taken.allowed) {
        const limit = kind === 'paid' ? `${options.paidPerMinute} paid calls` : `${options.freePerMinute} free requests`;
        throw fail('rate_limit_exceeded', `more than ${limit} per minute from this address; retry in ${taken.retryAfterSeconds} s`, {
          retryAfterSeconds: taken.retryAfterSeconds,
        });
      }
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
