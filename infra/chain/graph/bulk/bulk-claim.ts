import { fail } from '../../../../domain/shared/errors.js';
import { blockOfPosition, kindOfPosition } from '../../../../domain/ports/transfer-graph.port.js';
import type { Network } from '../../../../domain/shared/network.js';
import { netByte } from '../graph-keys.js';
import type { GraphDbs } from '../lmdb-graph-dbs.js';

/**
 * Who may write a network's graph while a bulk load runs, and what the live fold leaves to it after
 * (docs/operations.md#the-transfer-graph-ingestion-backfill-disk). A bulk load claims a network that holds nothing (no address, no data
 * set); while it runs (state `loading`) the fold refuses the network's transfers, so that no id or count
 * gets between; a bulk load killed before it finished is wiped and started over by the next one. Once
 * `loaded`, it owns the (block, kind) units in its block range per kind: the live fold skips chain
 * positions inside them (they are counted by the bulk load), and folds those outside as usual.
 */

export type BlockRange = readonly [from: number, to: number];

export interface BulkState {
  readonly state: 'loading' | 'loaded';
  /** Per kind (0 native transfers, 1 token logs): the blocks the load covered, or null when it had none. */
  readonly blocks: readonly [BlockRange | null, BlockRange | null];
  readonly transfers: number;
}

const key = (network: Network) => `bulk:${network}`;

export const bulkState = (dbs: GraphDbs, network: Network): BulkState | null =>
  (dbs.meta.get(key(network)) as BulkState | undefined) ?? null;

export function putBulkState(dbs: GraphDbs, network: Network, state: BulkState): void {
  dbs.meta.putSync(key(network), state);
}

/** True when the chain position lies in a (block, kind) unit the bulk load counted. */
export function bulkCovers(state: BulkState, position: number): boolean {
  const range = state.blocks[kindOfPosition(position)];
  const block = blockOfPosition(position);
  return range !== null && range !== undefined && block >= range[0] && block <= range[1];
}

/** What a bulk load about to start finds: a network that holds nothing, or the leftovers of a killed load. */
export function claimable(dbs: GraphDbs, network: Network): 'empty' | 'killed-load' {
  const state = bulkState(dbs, network);
  if (state?.state === 'loading') return 'killed-load';
  if (state) throw fail('invalid_state', `bulk load: ${network} was bulk-loaded already; later history goes through the pipeline`);
  const holds = dbs.meta.get(`next-id:${network}`) !== undefined || dbs.coverages(network).length > 0;
  if (holds) throw fail('invalid_state', `bulk load: the graph holds ${network} data already; a bulk load starts from an empty network`);
  return 'empty';
}

/** Removes everything of the network (the leftovers of a killed bulk load), a transaction per 100k keys. */
export function wipeNetwork(dbs: GraphDbs, network: Network): void {
  const start = Buffer.of(netByte(network));
  const end = Buffer.of(netByte(network) + 1);
  for (const db of [dbs.ids, dbs.addrs, dbs.pairs, dbs.ranked, dbs.nodes, dbs.seen, dbs.units, dbs.journal]) {
    for (;;) {
      const keys = [...db.getKeys({ start, end, limit: 100_000 })].map((k) => Buffer.from(k));
      if (keys.length === 0) break;
      dbs.root.transactionSync(() => keys.forEach((k) => db.removeSync(k)));
    }
  }
  const metaKeys = [...dbs.meta.getKeys({})].filter((k) => {
    const text = String(k);
    return (
      text === `next-id:${network}` ||
      text === `next-dataset:${network}` ||
      text === key(network) ||
      text.startsWith(`coverage:${network}:`) ||
      text.startsWith(`dataset-id:${network}:`)
    );
  });
  dbs.root.transactionSync(() => metaKeys.forEach((k) => dbs.meta.removeSync(k)));
}
