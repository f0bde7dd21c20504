import type { GraphTransfer, TransferBatch } from '../../domain/ports/transfer-graph.port.js';
import { chainPosition } from '../../domain/ports/transfer-graph.port.js';
import { GraphDbs } from '../../infra/chain/graph/lmdb-graph-dbs.js';
import { syntheticAddress, syntheticSource } from '../synthetic/synthetic-graph.js';

/** Fixtures of the bulk load's tests: a made-up graph in batches, and a store's records to compare two stores by. */

export const BULK_BOUND = 4;
const BOUND = BULK_BOUND;
const PER_BLOCK = 50;

/** A made-up graph with hubs past the bound, unpriced, estimated, hashless and self transfers, in batches of 500. */
export function fixture(transfers = 6000, firstIndex = 0): TransferBatch[] {
  const source = syntheticSource({ addresses: 400, transfers: firstIndex + transfers, seed: 7 });
  source.next(firstIndex);
  const batches: TransferBatch[] = [];
  for (let index = firstIndex; ;) {
    const chunk = source.next(500);
    if (chunk.from.length === 0) return batches;
    const list: GraphTransfer[] = [];
    for (let k = 0; k < chunk.from.length; k++, index++)
      list.push({
        from: syntheticAddress(chunk.from[k]!),
        to: syntheticAddress(index % 97 === 0 ? chunk.from[k]! : chunk.to[k]!),
        usdMicros: index % 13 === 0 ? null : chunk.usdMicros[k]!,
        at: chunk.at[k]! + (index % 7) * 1234,
        estimated: index % 11 === 0,
        txHash: index % 17 === 0 ? null : `0x${index.toString(16).padStart(64, '0')}`,
        position: chainPosition(Math.floor(index / PER_BLOCK), 'log', index % PER_BLOCK),
      });
    const dataset = index % 3 === 0 ? 'export:a' : 'export:b';
    batches.push({ network: 'ETH', dataset, caveat: `made up ${dataset}`, positions: 'chain', finalThrough: null, transfers: list });
  }
}

/** Every record of the graph's databases and its counters, as hex: what two equal stores hold alike. */
export async function contents(dir: string) {
  const dbs = new GraphDbs(dir, BOUND);
  const dump = (name: 'ids' | 'addrs' | 'pairs' | 'ranked' | 'nodes') =>
    [...dbs[name].getRange({})].map(({ key, value }) => `${Buffer.from(key).toString('hex')}=${Buffer.from(value).toString('hex')}`);
  const out = {
    ids: dump('ids'),
    addrs: dump('addrs'),
    pairs: dump('pairs'),
    ranked: dump('ranked'),
    nodes: dump('nodes'),
    nextId: dbs.meta.get('next-id:ETH'),
    coverage: dbs.coverages('ETH'),
  };
  await dbs.root.close();
  return out;
}
