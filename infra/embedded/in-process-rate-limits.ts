import type { CallRateLimits } from '../../domain/ports/call-rate-limits.port.js';
import { isFull, perMinute as perMinuteRule, takeToken, type Bucket, type BucketRule } from '../../domain/shared/token-bucket.js';

/** Buckets kept before refilled ones are forgotten (a full bucket says nothing). */
const SWEEP_AT = 50_000;

/** The embedded CallRateLimits: a token bucket per key in this process (`n` per minute, bursting up to `n`). */
export function createInProcessRateLimits(): CallRateLimits {
  const buckets = new Map<string, { rule: BucketRule; bucket: Bucket }>();

  function sweep(nowMs: number) {
    for (const [key, { rule, bucket }] of buckets) if (isFull(rule, bucket, nowMs)) buckets.delete(key);
  }

  return {
    async take(key, perMinute, nowMs) {
      const rule = perMinuteRule(perMinute);
      const taken = takeToken(rule, buckets.get(key)?.bucket, nowMs);
      buckets.set(key, { rule, bucket: taken.bucket });
      if (buckets.size > SWEEP_AT) sweep(nowMs);
      return taken.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: taken.retryAfterSeconds };
    },
  };
}
