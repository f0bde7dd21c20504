import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFull, perMinute, takeToken, type Bucket } from './token-bucket.js';

const rule = perMinute(60);

function takeMany(n: number, atMs: number, start?: Bucket) {
  let bucket = start;
  const allowed: boolean[] = [];
  let retryAfter: number | null = null;
  for (let i = 0; i < n; i++) {
    const taken = takeToken(rule, bucket, atMs);
    bucket = taken.bucket;
    allowed.push(taken.allowed);
    if (!taken.allowed) retryAfter = taken.retryAfterSeconds;
  }
  return { allowed, bucket: bucket!, retryAfter };
}

describe('token bucket: 60 per minute', () => {
  it('allows a burst of 60, refuses the 61st with Retry-After 1 s, and allows one more a second later', () => {
    const burst = takeMany(61, 0);
    expect(burst.allowed.filter(Boolean)).toHaveLength(60);
    expect(burst.allowed[60]).toBe(false);
    expect(burst.retryAfter).toBe(1);
    expect(takeToken(rule, burst.bucket, 999).allowed).toBe(false);
    expect(takeToken(rule, burst.bucket, 1000).allowed).toBe(true);
  });

  it('refills completely after a minute of silence, and a full bucket can be forgotten', () => {
    const burst = takeMany(60, 0);
    expect(isFull(rule, burst.bucket, 59_000)).toBe(false);
    expect(isFull(rule, burst.bucket, 60_000)).toBe(true);
    expect(takeMany(61, 60_000, burst.bucket).allowed.filter(Boolean)).toHaveLength(60);
  });

  it('never allows more than capacity + elapsed × rate, whatever the arrival times', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 400 }), (gaps) => {
        let bucket: Bucket | undefined;
        let now = 0;
        let allowed = 0;
        for (const gap of gaps) {
          now += gap;
          const taken = takeToken(rule, bucket, now);
          bucket = taken.bucket;
          if (taken.allowed) allowed++;
          else expect(taken.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        }
        expect(allowed).toBeLessThanOrEqual(60 + Math.floor((now / 1000) * rule.perSecond));
      }),
    );
  });
});
