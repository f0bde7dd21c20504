/**
 * A direct-mapped cache from 32-bit ids to values: id `k` lives in slot `k mod size`, a newer id evicts
 * the older one. A hit is two array reads (no hashing), so an exposure search that turns ten thousand ids
 * into addresses pays next to nothing for the ones seen before; sequential ids spread over every slot.
 */
export class SlotCache<V> {
  private readonly ids: Uint32Array;
  private readonly values: (V | undefined)[];
  private readonly mask: number;

  /** `size` is rounded up to a power of two. */
  constructor(size: number) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(1, size)));
    this.mask = slots - 1;
    this.ids = new Uint32Array(slots).fill(EMPTY);
    this.values = new Array<V | undefined>(slots).fill(undefined);
  }

  get(id: number): V | undefined {
    const slot = id & this.mask;
    return this.ids[slot] === id ? this.values[slot] : undefined;
  }

  set(id: number, value: V): void {
    if (id === EMPTY) return;
    const slot = id & this.mask;
    this.ids[slot] = id;
    this.values[slot] = value;
  }

  clear(): void {
    this.ids.fill(EMPTY);
    this.values.fill(undefined);
  }
}

/** No id: the store allocates ids from 0 up and never reaches 2³² − 1. */
const EMPTY = 0xffffffff;
