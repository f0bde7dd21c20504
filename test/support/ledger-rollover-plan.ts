/** What the ledger rollover crash test's child charges, and when (shared by the child and the test). */
const DAY = 86_400_000;
export const ROLLOVER_START = Date.parse('2026-01-20T12:00:00.000Z');
export const ROLLOVER_CHARGES = 120;
export const ROLLOVER_PRICE = 100_000;
export const ROLLOVER_USER = 'rollover-user';

/** Charge i happens two days after charge i-1. */
export const timeOf = (i: number): number => ROLLOVER_START + i * 2 * DAY;

/** Half the ids are uuid v7 created at their charge's time (deterministic, so a restart retries the same id); half are not uuid v7. */
export function chargeIdOf(i: number): string {
  if (i % 2 === 1) return `job-${i}`;
  const ms = timeOf(i) - 3_600_000;
  const hex = ms.toString(16).padStart(12, '0');
  const n = i.toString(16).padStart(3, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${n}-8${n}-${i.toString(16).padStart(12, '0')}`;
}
