/**
 * A map of at most about 2 × `limit` entries that keeps the recently used ones: two generations, the
 * current one filling until `limit`, then becoming the previous one (whose unused entries go). A hit in
 * the previous generation moves to the current one. No reordering on a hit, so a hot lookup costs one
 * Map get (a least-recently-used list costs a delete and a set per hit).
 */
export class BoundedMap<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const old = this.previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.current.size >= this.limit) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }

  clear(): void {
    this.current.clear();
    this.previous.clear();
  }
}
