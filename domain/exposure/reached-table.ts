/**
 * The addresses an exposure search has reached, each with its share, the neighbour that passed it the
 * largest part (its evidence route), its hop and whether its USD rests on an estimate: columns in typed
 * arrays behind an open-addressing table (linear probing) from address to row, not a Map of objects.
 *
 * Why: a search reaches ten thousand addresses. As a Map of one object each, plus a frontier tuple each,
 * it allocated about 2 MB that lived as long as the search, so the young generation's scavenges promoted
 * them, and V8's Map tables past 128 KB go straight to the old generation: old-space garbage that brought a
 * mark-compact every hundred or so searches, the pauses behind bench:graph's warm p99 (docs/benchmarks.md).
 * A table is borrowed for one search and handed back (borrowReached / returnReached), so a warm search
 * allocates none of it.
 */
export class ReachedTable {
  size = 0;
  share: Float64Array;
  bestPart: Float64Array;
  /** The row of the neighbour that passed the largest part (the anchor, row 0, is its own parent). */
  parent: Int32Array;
  hop: Int32Array;
  estimated: Uint8Array;
  private addresses: string[];
  /** Row + 1 per slot, 0 for an empty slot; twice the rows' capacity, a power of two. */
  private slots: Int32Array;

  constructor(capacity = 1024) {
    this.share = new Float64Array(capacity);
    this.bestPart = new Float64Array(capacity);
    this.parent = new Int32Array(capacity);
    this.hop = new Int32Array(capacity);
    this.estimated = new Uint8Array(capacity);
    this.addresses = new Array<string>(capacity).fill('');
    this.slots = new Int32Array(capacity * 2);
  }

  get capacity(): number {
    return this.share.length;
  }

  /** The row of `address`, or -1 when it was not reached. */
  rowOf(address: string): number {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(address) & mask; ; slot = (slot + 1) & mask) {
      const row = (this.slots[slot] ?? 0) - 1;
      if (row < 0 || this.addresses[row] === address) return row;
    }
  }

  addressAt(row: number): string {
    return this.addresses[row] ?? '';
  }

  /** Adds an address not reached before (the caller asked rowOf first); returns its row. */
  add(address: string, share: number, parent: number, hop: number, estimated: boolean): number {
    if (this.size === this.capacity) this.grow();
    const row = this.size++;
    this.addresses[row] = address;
    this.share[row] = share;
    this.bestPart[row] = share;
    this.parent[row] = parent;
    this.hop[row] = hop;
    this.estimated[row] = estimated ? 1 : 0;
    this.place(address, row);
    return row;
  }

  /** One more part of a share reaching `row` from the row `from`: the largest part names the route. */
  pass(row: number, part: number, from: number, estimated: boolean): void {
    this.share[row] = (this.share[row] ?? 0) + part;
    if (estimated) this.estimated[row] = 1;
    if (part > (this.bestPart[row] ?? 0)) {
      this.bestPart[row] = part;
      this.parent[row] = from;
    }
  }

  /** Empties the table for the next search, keeping its arrays. */
  clear(): void {
    this.addresses.fill('', 0, this.size);
    this.slots.fill(0);
    this.size = 0;
  }

  private place(address: string, row: number): void {
    const mask = this.slots.length - 1;
    let slot = hashOf(address) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = row + 1;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const widen = <T extends Float64Array | Int32Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.share = widen(this.share, (n) => new Float64Array(n));
    this.bestPart = widen(this.bestPart, (n) => new Float64Array(n));
    this.parent = widen(this.parent, (n) => new Int32Array(n));
    this.hop = widen(this.hop, (n) => new Int32Array(n));
    this.estimated = widen(this.estimated, (n) => new Uint8Array(n));
    this.addresses.length = capacity;
    this.addresses.fill('', this.size);
    this.slots = new Int32Array(capacity * 2);
    for (let row = 0; row < this.size; row++) this.place(this.addressAt(row), row);
  }
}

/**
 * FNV-1a over the last HASHED_CHARS characters: the end of an address (hex of a hash, or base58 with its
 * checksum) is as random as all of it, and reading a few characters costs less than reading 42.
 */
const HASHED_CHARS = 16;
function hashOf(address: string): number {
  let hash = 0x811c9dc5;
  for (let at = Math.max(0, address.length - HASHED_CHARS); at < address.length; at++) {
    hash = Math.imul(hash ^ address.charCodeAt(at), 0x01000193);
  }
  return hash ^ (hash >>> 15);
}

/** Tables kept between searches; one that grew past KEPT_CAPACITY rows (a huge budget) is let go. */
const idle: ReachedTable[] = [];
const IDLE_TABLES = 4;
const KEPT_CAPACITY = 65_536;

export function borrowReached(): ReachedTable {
  return idle.pop() ?? new ReachedTable();
}

export function returnReached(table: ReachedTable): void {
  table.clear();
  if (idle.length < IDLE_TABLES && table.capacity <= KEPT_CAPACITY) idle.push(table);
}
