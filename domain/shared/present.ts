/**
 * The value, or a thrown error saying which invariant broke. For values the code's own invariants guarantee
 * (an index checked a line above, a key written before it is read): failing loudly beats a silent
 * `undefined` downstream. `why` states the invariant, e.g. `present(cache.get(key), 'set just above when
 * absent')`, not the expression again (TigerBeetle's assertions say why they hold).
 */
export function present<T>(value: T | null | undefined, why: string): T {
  if (value === undefined || value === null) throw new Error(`invariant broken, a value is missing: ${why}`);
  return value;
}
