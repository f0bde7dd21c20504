/**
 * Index entries handed to LMDB whose transaction has not committed yet, so that lookups see them at once
 * and the next append round need not wait for the commit. Each entry remembers the batch that wrote it; a
 * batch's commit forgets only the entries no later batch has overwritten since.
 */
export class UncommittedEntries<V> {
  private readonly entries = new Map<string, { value: V; batch: number }>();

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V, batch: number): void {
    this.entries.set(key, { value, batch });
  }

  /** Called once `batch` is committed: LMDB answers for its entries from now on. */
  forget(keys: Iterable<string>, batch: number): void {
    for (const key of keys) if (this.entries.get(key)?.batch === batch) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
