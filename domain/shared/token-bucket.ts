/**
 * A token bucket as a value: `capacity` tokens, refilled continuously at `perSecond`. Pure: time comes in
 * as milliseconds, so limits are tested without waiting.
 */
export interface Bucket {
  readonly tokens: number;
  readonly updatedMs: number;
}

export interface BucketRule {
  readonly capacity: number;
  readonly perSecond: number;
}

export type Take =
  | { readonly allowed: true; readonly bucket: Bucket }
  | { readonly allowed: false; readonly bucket: Bucket; readonly retryAfterSeconds: number };

export function takeToken(rule: BucketRule, bucket: Bucket | undefined, nowMs: number): Take {
  const elapsedSeconds = bucket ? Math.max(0, nowMs - bucket.updatedMs) / 1000 : 0;
  const tokens = bucket ? Math.min(rule.capacity, bucket.tokens + elapsedSeconds * rule.perSecond) : rule.capacity;
  if (tokens >= 1) return { allowed: true, bucket: { tokens: tokens - 1, updatedMs: nowMs } };
  return { allowed: false, bucket: { tokens, updatedMs: nowMs }, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / rule.perSecond)) };
}

/** A bucket that has refilled completely carries no information and can be forgotten. */
export function isFull(rule: BucketRule, bucket: Bucket, nowMs: number): boolean {
  return bucket.tokens + (Math.max(0, nowMs - bucket.updatedMs) / 1000) * rule.perSecond >= rule.capacity;
}

/** `n` per minute, bursting up to `n`: the spec's "60 per 1 minute". */
export const perMinute = (n: number): BucketRule => ({ capacity: n, perSecond: n / 60 });
