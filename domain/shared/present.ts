/**
 * The value, or a thrown error naming what was missing. For values the code's own invariants guarantee (an index
 * checked a line above, a key written before it is read): failing loudly beats a silent `undefined` downstream.
 */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`invariant broken: ${what} is missing`);
  return value;
}
