import type { Network } from '../../../../domain/shared/network.js';
import { BoundedMap } from '../bounded-map.js';
import { addressBytes, idKey, idsKey } from '../graph-keys.js';
import type { GraphDbs } from '../lmdb-graph-dbs.js';
import { putOptions } from './lmdb-append.js';

/**
 * The bulk load's address → id map in bounded memory: the store's own `ids` database on disk is the map,
 * a two-generation cache of recently seen addresses (power-law traffic: the hubs stay in it) sits in front
 * of it, and the ids allocated since the last write wait in memory until a batch of them is written. Ids go
 * out in order of first sight, as the fold allocates them. A lookup the cache misses reads pages of `ids`,
 * which the load writes itself: in the page cache while `ids` fits there, a random disk read beyond. The
 * alternative without random reads, an external sort of first sights joined back to the transfers, sorts
 * every transfer twice more (not built; the next step if `ids` outgrows the page cache).
 */
export class AddressIds {
  private readonly cache: BoundedMap<string, number>;
  private pending = new Map<string, number>();
  private firstPending = 0;
  next = 0;

  constructor(
    private readonly dbs: GraphDbs,
    private readonly network: Network,
    /** Addresses per cache generation (the cache holds up to twice as many). */
    cacheEntries: number,
    /** New ids held before a write (the bigger, the fewer write transactions). */
    private readonly batch = 100_000,
  ) {
    this.cache = new BoundedMap(cacheEntries);
  }

  id(address: string): number {
    const cached = this.cache.get(address) ?? this.pending.get(address) ?? this.stored(address);
    if (cached !== undefined) return cached;
    const id = this.next++;
    this.pending.set(address, id);
    this.cache.set(address, id);
    if (this.pending.size >= this.batch) this.flush();
    return id;
  }

  private stored(address: string): number | undefined {
    const value = this.dbs.ids.getBinaryFast(idsKey(this.network, address));
    if (!value) return undefined;
    const id = Buffer.from(value.buffer, value.byteOffset, value.length).readUInt32BE(0);
    this.cache.set(address, id);
    return id;
  }

  /** Writes the ids allocated since the last write (`addrs` in id order: appended). */
  flush(): void {
    const { dbs, network, pending, firstPending } = this;
    const append = putOptions(dbs.addrs, network);
    dbs.root.transactionSync(() => {
      let id = firstPending;
      for (const address of pending.keys()) {
        const value = Buffer.allocUnsafe(4);
        value.writeUInt32BE(id, 0);
        dbs.ids.putSync(idsKey(network, address), value);
        dbs.addrs.putSync(idKey(network, id++), addressBytes(address), append);
      }
    });
    this.pending = new Map();
    this.firstPending = this.next;
  }
}
