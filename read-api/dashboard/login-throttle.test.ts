import { describe, expect, it } from 'vitest';
import { createLoginThrottle } from './login-throttle.js';

function throttleAt(start = Date.parse('2026-03-10T12:00:00Z')) {
  const clock = { t: start, now: () => new Date(clock.t) };
  return { clock, throttle: createLoginThrottle({ clock, maxFailures: 3, windowMs: 60_000 }) };
}

describe('login throttle', () => {
  it('allows maxFailures failures per email, then waits until the oldest leaves the window', () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
      throttle.recordFailure('a@x.test', '10.0.0.1');
      clock.t += 10_000;
    }
    expect(throttle.retryAfterMs('A@X.TEST', '10.0.0.2')).toBe(30_000);
    clock.t += 30_000;
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
  });

  it('a success clears the email’s failures', () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 2; i++) throttle.recordFailure('a@x.test', '10.0.0.1');
    throttle.recordSuccess('a@x.test');
    for (let i = 0; i < 2; i++) throttle.recordFailure('a@x.test', '10.0.0.1');
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
  });

  it('limits one client address spraying many emails at four times the per-email limit', () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 12; i++) throttle.recordFailure(`user${i}@x.test`, '10.0.0.9');
    expect(throttle.retryAfterMs('fresh@x.test', '10.0.0.9')).toBe(60_000);
    expect(throttle.retryAfterMs('fresh@x.test', '10.0.0.10')).toBe(0);
  });
});
