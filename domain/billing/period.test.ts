import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { periodStartOf } from './period.js';

/** The month's first instant, computed through Date: what the fast path must agree with. */
const throughDate = (at: string | Date) => {
  const d = new Date(at);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
};

describe('periodStartOf', () => {
  it('gives the first instant of the UTC month, for event times and Dates alike', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        (date) => {
          expect(periodStartOf(date.toISOString())).toBe(throughDate(date));
          expect(periodStartOf(date)).toBe(throughDate(date));
        },
      ),
    );
  });

  it('reads other ISO forms through Date: an offset moves the instant into another month', () => {
    expect(periodStartOf('2026-12-01T00:30:00+01:00')).toBe('2026-11-01T00:00:00.000Z');
    expect(periodStartOf('2026-11-30')).toBe('2026-11-01T00:00:00.000Z');
  });
});
