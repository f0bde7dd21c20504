import { describe, expect, it } from 'vitest';
import { createLoginThrottle, FIRST_DELAY_MS, growingDelayMs, type LoginReservation } from './login-throttle.js';

const WINDOW_MS = 15 * 60_000;

function throttleAt(start = Date.parse('2026-03-10T12:00:00Z')) {
  const clock = { t: start, now: () => new Date(clock.t) };
  return { clock, throttle: createLoginThrottle({ clock, maxFailures: 3, windowMs: WINDOW_MS }) };
}

function reserved(result: LoginReservation | { retryAfterMs: number }): LoginReservation {
  if ('retryAfterMs' in result) throw new Error(`refused for ${result.retryAfterMs} ms`);
  return result;
}

describe('login throttle', () => {
  it('the growing delay: nothing within the allowance, then 1 s, doubling, up to the window', () => {
    expect([0, 1, 2].map((n) => growingDelayMs(n, 3, WINDOW_MS))).toEqual([0, 0, 0]);
    expect([3, 4, 5, 6].map((n) => growingDelayMs(n, 3, WINDOW_MS))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(growingDelayMs(13, 3, WINDOW_MS)).toBe(WINDOW_MS);
    expect(growingDelayMs(10_000, 3, WINDOW_MS)).toBe(WINDOW_MS);
  });

  it('failures for an email from one address never keep the owner out from another', () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 20; i++) {
      const attempt = throttle.reserve('owner@x.test', '203.0.113.66');
      if ('retryAfterMs' in attempt) break;
      attempt.failed();
    }
    expect(throttle.retryAfterMs('owner@x.test', '203.0.113.66')).toBeGreaterThan(0);
    expect(throttle.retryAfterMs('OWNER@x.test', '198.51.100.7')).toBe(0);
    reserved(throttle.reserve('owner@x.test', '198.51.100.7')).succeeded();
  });

  it('past the allowance each failure doubles the wait before the next guess, from the same address', () => {
    const { clock, throttle } = throttleAt();
    const waits: number[] = [];
    for (let guess = 0; guess < 8; guess++) {
      const wait = throttle.retryAfterMs('a@x.test', '10.0.0.1');
      waits.push(wait);
      clock.t += wait;
      reserved(throttle.reserve('a@x.test', '10.0.0.1')).failed();
    }
    expect(waits).toEqual([0, 0, 0, 1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(throttle.reserve('a@x.test', '10.0.0.1')).toEqual({ retryAfterMs: 32_000 });
    // the attacker's guesses in a quarter of an hour: the allowance and a handful more
    let guesses = 8;
    for (const end = clock.t + WINDOW_MS; clock.t < end; guesses++) {
      clock.t += throttle.retryAfterMs('a@x.test', '10.0.0.1');
      reserved(throttle.reserve('a@x.test', '10.0.0.1')).failed();
    }
    expect(guesses).toBeLessThan(20);
  });

  it('one address gets four times the pair allowance across emails, then waits, counted at reservation', () => {
    const { throttle } = throttleAt();
    const inFlight = Array.from({ length: 12 }, (_, i) => reserved(throttle.reserve(`user${i}@x.test`, '10.0.0.9')));
    expect(throttle.reserve('fresh@x.test', '10.0.0.9')).toEqual({ retryAfterMs: FIRST_DELAY_MS });
    expect(throttle.retryAfterMs('fresh@x.test', '10.0.0.10')).toBe(0);
    for (const attempt of inFlight) attempt.failed();
  });

  it('an IPv6 client counts by its /64: hopping addresses inside it does not reset its count', () => {
    const { throttle } = throttleAt();
    for (let i = 1; i <= 3; i++) reserved(throttle.reserve('a@x.test', `2001:db8:1:2::${i}`)).failed();
    expect(throttle.retryAfterMs('a@x.test', '2001:db8:1:2:ffff::9')).toBe(FIRST_DELAY_MS);
    expect(throttle.retryAfterMs('a@x.test', '2001:db8:1:3::1')).toBe(0);
  });

  it('counts an attempt when it is reserved: attempts still being checked use up the allowance', () => {
    const { throttle } = throttleAt();
    // Three checks in flight at once (none settled yet): a fourth is refused even with the right password.
    const inFlight = [0, 1, 2].map(() => reserved(throttle.reserve('a@x.test', '10.0.0.1')));
    expect(throttle.reserve('a@x.test', '10.0.0.1')).toEqual({ retryAfterMs: FIRST_DELAY_MS });
    for (const attempt of inFlight) attempt.failed();
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(FIRST_DELAY_MS);
  });

  it('failures leave the count once they are a window old', () => {
    const { clock, throttle } = throttleAt();
    for (let i = 0; i < 3; i++) reserved(throttle.reserve('a@x.test', '10.0.0.1')).failed();
    clock.t += WINDOW_MS;
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
  });

  it('a success gives its reservation back and forgets the pair’s failures, not the address’s', () => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 2; i++) reserved(throttle.reserve('a@x.test', '10.0.0.1')).failed();
    reserved(throttle.reserve('a@x.test', '10.0.0.1')).succeeded();
    for (let i = 0; i < 2; i++) reserved(throttle.reserve('a@x.test', '10.0.0.1')).failed();
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
    // the address's 4 failures still count: 8 more (across emails) reach its allowance of 12
    for (let i = 0; i < 8; i++) reserved(throttle.reserve(`b${i}@x.test`, '10.0.0.1')).failed();
    expect(throttle.retryAfterMs('c@x.test', '10.0.0.1')).toBe(FIRST_DELAY_MS);
  });

  it('a cancelled reservation (never checked) stops counting; settling twice changes nothing', () => {
    const { throttle } = throttleAt();
    const attempts = [0, 1, 2].map(() => reserved(throttle.reserve('a@x.test', '10.0.0.1')));
    attempts[0]!.cancel();
    attempts[0]!.cancel();
    attempts[0]!.failed();
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(0);
    reserved(throttle.reserve('a@x.test', '10.0.0.1'));
    expect(throttle.retryAfterMs('a@x.test', '10.0.0.1')).toBe(FIRST_DELAY_MS);
  });
});
