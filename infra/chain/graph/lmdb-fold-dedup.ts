import { blockOfPosition, kindOfPosition, type GraphTransfer, type TransferBatch } from '../../../domain/ports/transfer-graph.port.js';
import type { Network } from '../../../domain/shared/network.js';
import { readUnitBlock, seenKey, unitKey } from './graph-keys.js';
import type { GraphDbs } from './lmdb-graph-dbs.js';
import { bulkCovers, bulkState } from './bulk/bulk-claim.js';

/**
 * What a fold has folded already, so that a transfer counts once (docs/ARCHITECTURE.md#the-transfer-graph).
 * A (block, kind) unit folded from a batch of whole blocks is one mark (a few bytes per block, not per
 * transfer); a transfer of a batch that may cut a block (an export's rows) keeps a key of its own, and its
 * unit is marked partial, so that whole blocks arriving later check those keys. Marks of revertible blocks
 * go with a revert; FINAL marks never do.
 */

export const UNIT_WHOLE = 1;
export const UNIT_PARTIAL = 2;
export const UNIT_FINAL = 4;

/** The filter of the batch's new transfers; calling it marks the transfer folded (call it once per transfer, in order). */
export function newTransfers(dbs: GraphDbs, batch: TransferBatch, origin: number): (t: GraphTransfer) => boolean {
  const { network } = batch;
  if (batch.positions === 'rows') return (t) => dbs.markSeen(seenKey(network, origin, t.position));
  const isNew = newChainTransfers(dbs, batch);
  const bulk = bulkState(dbs, network);
  if (bulk?.state === 'loading') throw new Error(`graph store: a bulk load of ${network} is under way; its transfers fold after it`);
  // Units a bulk load counted are not counted again (their positions have no key: bulk-claim.ts).
  return bulk ? (t) => !bulkCovers(bulk, t.position) && isNew(t) : isNew;
}

function newChainTransfers(dbs: GraphDbs, batch: TransferBatch): (t: GraphTransfer) => boolean {
  const { network } = batch;
  const final = (block: number) => batch.finalThrough === null || block <= batch.finalThrough;
  const units = new Map<number, number>();
  const stateOf = (block: number, kind: 0 | 1): number => {
    const id = block * 2 + kind;
    let state = units.get(id);
    if (state === undefined) {
      state = dbs.unit(network, block, kind);
      units.set(id, state);
      const mark = (batch.positions === 'blocks' ? UNIT_WHOLE : UNIT_PARTIAL) | (final(block) ? UNIT_FINAL : 0);
      if (!(state & UNIT_WHOLE) && (state | mark) !== state) dbs.putUnit(network, block, kind, state | mark);
    }
    return state;
  };
  return (t) => {
    const state = stateOf(blockOfPosition(t.position), kindOfPosition(t.position));
    if (state & UNIT_WHOLE) return false;
    // A whole block over a unit folded in part: the parts' keys say which of its transfers are folded.
    if (batch.positions === 'blocks' && !(state & UNIT_PARTIAL)) return true;
    return dbs.markSeen(seenKey(network, 0, t.position));
  };
}

/** After a revert from `fromBlock`: the marks of revertible units go (their transfers were undone). */
export function forgetUnitsFrom(dbs: GraphDbs, network: Network, fromBlock: number): void {
  const end = unitKey(network, 2 ** 32 - 1, 1);
  const gone: Buffer[] = [];
  for (const { key, value } of dbs.units.getRange({ start: unitKey(network, fromBlock, 0), end })) {
    if (!((value[0] ?? 0) & UNIT_FINAL) && readUnitBlock(key) >= fromBlock) gone.push(Buffer.from(key));
  }
  for (const key of gone) dbs.units.removeSync(key);
}

/** The units of finalised transfers become FINAL (a later revert leaves them). */
export function finalizeUnits(dbs: GraphDbs, network: Network, positions: Iterable<number>): void {
  const done = new Set<number>();
  for (const position of positions) {
    const block = blockOfPosition(position);
    const kind = kindOfPosition(position);
    if (done.has(block * 2 + kind)) continue;
    done.add(block * 2 + kind);
    const state = dbs.unit(network, block, kind);
    if (state !== 0 && !(state & UNIT_FINAL)) dbs.putUnit(network, block, kind, state | UNIT_FINAL);
  }
}
