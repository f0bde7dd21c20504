import { describe, expect, it } from 'vitest';
import { createLoginThrottle, type LoginReservation } from './login-throttle.js';

function throttleAt(start = Date.parse('2026-03-10T12:00:00Z')) {
  const clock = { t: start, now: () => new Date(clock.t) };
  return { clock, throttle: createLoginThrottle({ clock, maxFailures: 3, windowMs: 60_000 }) };
}

function reserved(result: LoginReservation | { retryAfterMs: number }): LoginReservation {
  if ('retryAfterMs' in result) throw new Error(`refused for ${result.retryAfterMs} ms`);
  return result;
}

describe('login throttle', () => {
  it('allows maxFailures failures per email, then waits until the oldest leaves the window', () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
      reserved(throttle.reserve('a@x.test', '10.0.0.1')).failed();
      clock.t += 10_000;
    }
    expect(throttle.retryAfterMs('A@X.TEST', '10.0.0.2')).toBe(30_000);
    expect(throttle.reserve('A@X.TEST', '10.0.0.2')).toEqual({ retryAfterMs: 30_000 });
    clock.t += 30_000;
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
  });

  it('counts an attempt when it is reserved: attempts still being checked use up the limit', () => {
    const { throttle } = throttleAt();
    // Three checks in flight at once (none settled yet): a fourth is refused even with the right password.
    const inFlight = [0, 1, 2].map(() => reserved(throttle.reserve('a@x.test', '10.0.0.1')));
    expect(throttle.reserve('a@x.test', '10.0.0.1')).toEqual({ retryAfterMs: 60_000 });
    for (const attempt of inFlight) attempt.failed();
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(60_000);
  });

  it('one client address gets four times the per-email limit across emails, counted at reservation', () => {
    const { throttle } = throttleAt();
    const inFlight = Array.from({ length: 12 }, (_, i) => reserved(throttle.reserve(`user${i}@x.test`, '10.0.0.9')));
    expect(throttle.reserve('fresh@x.test', '10.0.0.9')).toEqual({ retryAfterMs: 60_000 });
    expect(throttle.retryAfterMs('fresh@x.test', '10.0.0.10')).toBe(0);
    for (const attempt of inFlight) attempt.failed();
  });

  it('a success gives its reservation back and clears the email’s failures', () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 2; i++) reserved(throttle.reserve('a@x.test', '10.0.0.1')).failed();
    reserved(throttle.reserve('a@x.test', '10.0.0.1')).succeeded();
    for (let i = 0; i < 2; i++) reserved(throttle.reserve('a@x.test', '10.0.0.1')).failed();
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
  });

  it('a cancelled reservation (never checked) stops counting; settling twice changes nothing', () => {
    const { throttle } = throttleAt();
    const attempts = [0, 1, 2].map(() => reserved(throttle.reserve('a@x.test', '10.0.0.1')));
    attempts[0]!.cancel();
    attempts[0]!.cancel();
    attempts[0]!.failed();
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
    reserved(throttle.reserve('a@x.test', '10.0.0.1'));
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(60_000);
  });
});
