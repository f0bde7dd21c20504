/**
 * A map whose copy costs O(log n), not O(n): the command executor decides each batch on a copy of a
 * stream's state and publishes it only once the append is durable, and a ledger period may hold many
 * thousands of charges. Entries live in frozen levels (shared by every copy) plus a small layer of recent
 * writes (copied by `fork`); a full layer becomes a level, and levels of similar size merge, as in a
 * binary counter, so each entry is copied O(log n) times in all and a lookup checks O(log n) levels.
 */
const LAYER_LIMIT = 64;

export class ForkableMap<K, V> implements Iterable<[K, V]> {
  private constructor(
    private readonly levels: readonly ReadonlyMap<K, V>[],
    private readonly layer: Map<K, V>,
    private count: number,
  ) {}

  static empty<K, V>(): ForkableMap<K, V> {
    return new ForkableMap<K, V>([], new Map(), 0);
  }

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    if (this.layer.has(key)) return this.layer.get(key);
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i];
      if (level?.has(key)) return level.get(key);
    }
    return undefined;
  }

  has(key: K): boolean {
    return this.layer.has(key) || this.levels.some((level) => level.has(key));
  }

  set(key: K, value: V): this {
    if (!this.has(key)) this.count += 1;
    this.layer.set(key, value);
    return this;
  }

  /** An independent copy: writes to either are not seen by the other. */
  fork(): ForkableMap<K, V> {
    if (this.layer.size < LAYER_LIMIT) return new ForkableMap(this.levels, new Map(this.layer), this.count);
    // The full layer becomes a frozen level; the newest levels merge while the older one is not larger.
    const levels = [...this.levels, new Map(this.layer)];
    for (;;) {
      const [older, newer] = levels.slice(-2);
      if (!older || !newer || older.size > newer.size * 2) break;
      const merged = new Map(older);
      for (const [key, value] of newer) merged.set(key, value);
      levels.splice(-2, 2, merged);
    }
    return new ForkableMap(levels, new Map(), this.count);
  }

  *entries(): IterableIterator<[K, V]> {
    const seen = new Set<K>();
    for (const source of [this.layer, ...[...this.levels].reverse()]) {
      for (const [key, value] of source) {
        if (seen.has(key)) continue;
        seen.add(key);
        yield [key, value];
      }
    }
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }
}
