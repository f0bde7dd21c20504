/** Money is integer micro-USD (1 USD = 1_000_000): exact sums, no float drift. */
export type Micros = number;

export const MICROS_PER_USD = 1_000_000;

export function usdToMicros(usd: number): Micros {
  return Math.round(usd * MICROS_PER_USD);
}

/** For response bodies only: USD as a number with at most 6 decimals. */
export function microsToUsd(micros: Micros): number {
  return Number((micros / MICROS_PER_USD).toFixed(6));
}

export function isMicros(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}
