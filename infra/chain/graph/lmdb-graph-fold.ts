import type { FlowDirection } from '../../../domain/ports/chain-data.port.js';
import { normalizeAddress } from '../../../domain/shared/address.js';
import type { Network } from '../../../domain/shared/network.js';
import { BLOCK_POSITIONS, blockOfPosition, type FoldOutcome, type TransferBatch } from '../../../domain/ports/transfer-graph.port.js';
import { journalKey, ranksBefore, readPosition, seenKey, type RankedRow } from './graph-keys.js';
import { decodeJournal, emptyPair, encodeJournal, FLAG_ESTIMATED, restFlag, type PairRecord, type SideTotals } from './graph-records.js';
import type { GraphDbs, NodeMap } from './lmdb-graph-dbs.js';
import { finalizeUnits, forgetUnitsFrom, newTransfers } from './lmdb-fold-dedup.js';

/**
 * What a fold, a revert and a finalisation do to the LMDB graph store, each inside one write transaction
 * (the caller's). The batches of a fold are first summed per pair in memory, so a hub met a thousand times
 * in a transaction costs one read and one write of its records, and the sums are applied in key order, so
 * that consecutive writes land on the same B-tree pages (docs/benchmarks.md#transfer-graph-at-chain-scale).
 */

interface PairDelta {
  readonly from: number;
  readonly to: number;
  usd: number;
  transfers: number;
  unpriced: number;
  estimated: boolean;
  firstAt: number;
  lastAt: number;
  settledLastAt: number;
  sampleOrigin: number;
  samplePosition: number;
  sampleTx: string | null;
}

const SIDES: readonly FlowDirection[] = ['out', 'in'];
const endOf = (delta: { from: number; to: number }, side: FlowDirection) =>
  side === 'out' ? { owner: delta.from, counterparty: delta.to } : { owner: delta.to, counterparty: delta.from };

/** (time, origin, position) order: the sample is the earliest transfer of a pair. */
const earlier = (a: Pick<PairRecord, 'firstAt' | 'sampleOrigin' | 'samplePosition'>, b: typeof a): boolean =>
  a.firstAt !== b.firstAt
    ? a.firstAt < b.firstAt
    : a.sampleOrigin !== b.sampleOrigin
      ? a.sampleOrigin < b.sampleOrigin
      : a.samplePosition < b.samplePosition;

type Deltas = Map<string, PairDelta>;

/**
 * Folds the batches of one transaction. Their pair sums are applied together, per network, at the end,
 * or before a batch's finalisation (which reads the pairs it settles).
 */
export function foldBatches(dbs: GraphDbs, batches: readonly TransferBatch[]): FoldOutcome[] {
  const pending = new Map<Network, Deltas>();
  const outcomes = batches.map((batch) => {
    let deltas = pending.get(batch.network);
    if (!deltas) pending.set(batch.network, (deltas = new Map()));
    const outcome = collectBatch(dbs, batch, deltas);
    if (batch.finalThrough !== null && batch.positions !== 'rows') {
      applyDeltas(dbs, batch.network, deltas);
      finalizeThrough(dbs, batch.network, batch.finalThrough);
    }
    return outcome;
  });
  for (const [network, deltas] of pending) applyDeltas(dbs, network, deltas);
  return outcomes;
}

/** Applies the summed deltas in (sender, recipient) order, then forgets them. */
function applyDeltas(dbs: GraphDbs, network: Network, deltas: Deltas): void {
  const ordered = [...deltas.values()].sort((a, b) => a.from - b.from || a.to - b.to);
  deltas.clear();
  const nodes = dbs.newNodeMap();
  for (const delta of ordered) applyDelta(dbs, network, nodes, delta);
  nodes.flush(network);
}

/** Dedups a batch, interns its addresses, journals its revertible transfers and sums it per pair into `deltas`. */
function collectBatch(dbs: GraphDbs, batch: TransferBatch, deltas: Deltas): FoldOutcome {
  const { network } = batch;
  const dataset = dbs.datasetId(network, batch.dataset);
  const origin = batch.positions === 'rows' ? dataset : 0;
  const isNew = newTransfers(dbs, batch, origin);
  let skipped = 0;
  let firstAt = Number.POSITIVE_INFINITY;
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastPosition = -1;
  for (const t of batch.transfers) {
    // Chain times are whole seconds (the edges keep seconds).
    const at = Math.floor(t.at / 1000) * 1000;
    const sender = normalizeAddress(t.from);
    const recipient = normalizeAddress(t.to);
    if (sender === recipient || !isNew(t)) {
      skipped += 1;
      continue;
    }
    const from = dbs.intern(network, sender);
    const to = dbs.intern(network, recipient);
    const final = origin !== 0 || batch.finalThrough === null || blockOfPosition(t.position) <= batch.finalThrough;
    if (!final) dbs.journal.putSync(journalKey(network, t.position), encodeJournal({ from, to, usd: t.usdMicros, at, dataset }));
    const key = `${from}:${to}`;
    let delta = deltas.get(key);
    if (!delta) deltas.set(key, (delta = { from, to, ...emptyPair(), estimated: false }));
    delta.usd += t.usdMicros ?? 0;
    delta.transfers += 1;
    if (t.usdMicros === null) delta.unpriced += 1;
    delta.estimated ||= t.estimated;
    const sample = { firstAt: at, sampleOrigin: origin, samplePosition: t.position };
    if (earlier(sample, delta)) Object.assign(delta, sample, { sampleTx: t.txHash });
    delta.lastAt = Math.max(delta.lastAt, at);
    if (final) delta.settledLastAt = Math.max(delta.settledLastAt, at);
    firstAt = Math.min(firstAt, at);
    lastAt = Math.max(lastAt, at);
    lastPosition = Math.max(lastPosition, t.position);
  }
  dbs.saveCounters();
  const folded = batch.transfers.length - skipped;
  if (folded > 0) {
    const coverage = dbs.coverage(network, dataset) ?? {
      name: batch.dataset,
      caveat: batch.caveat,
      transfers: 0,
      from: firstAt,
      to: lastAt,
    };
    const chain = batch.positions !== 'rows';
    dbs.putCoverage(network, dataset, {
      ...coverage,
      transfers: coverage.transfers + folded,
      from: Math.min(coverage.from, firstAt),
      to: Math.max(coverage.to, lastAt),
      kind: batch.kind ?? coverage.kind ?? (chain ? 'ingested_blocks' : 'sample'),
      version: batch.version ?? coverage.version ?? null,
      upToBlock: chain ? Math.max(coverage.upToBlock ?? 0, blockOfPosition(lastPosition)) : null,
    });
  }
  return { folded, skipped };
}

function applyDelta(dbs: GraphDbs, network: Network, nodes: NodeMap, delta: PairDelta): void {
  const old = dbs.pair(network, delta.from, delta.to);
  const pair: PairRecord = old ? { ...old } : emptyPair();
  pair.usd += delta.usd;
  pair.transfers += delta.transfers;
  pair.unpriced += delta.unpriced;
  if (delta.estimated) pair.flags |= FLAG_ESTIMATED;
  if (earlier(delta, pair)) Object.assign(pair, pickSample(delta));
  pair.lastAt = Math.max(pair.lastAt, delta.lastAt);
  pair.settledLastAt = Math.max(pair.settledLastAt, delta.settledLastAt);
  for (const side of SIDES) {
    const { owner, counterparty } = endOf(delta, side);
    const node = nodes.get(network, owner);
    addTo(node[side], delta, 1);
    node.firstAt = Math.min(node.firstAt, delta.firstAt);
    node.lastAt = Math.max(node.lastAt, delta.lastAt);
    node.settledLastAt = Math.max(node.settledLastAt, delta.settledLastAt);
    const row = { counterparty, usd: pair.usd, transfers: pair.transfers, estimated: (pair.flags & FLAG_ESTIMATED) !== 0 };
    if (!old) node[side].counterparties += 1;
    if (old && !(old.flags & restFlag(side))) {
      dbs.unrank(network, owner, side, rowOf(counterparty, old));
      dbs.rank(network, owner, side, row);
    } else keep(dbs, network, { owner, side, row, pair, totals: node[side] });
  }
  dbs.putPair(network, delta.from, delta.to, pair);
}

const rowOf = (counterparty: number, pair: PairRecord): RankedRow => ({
  counterparty,
  usd: pair.usd,
  transfers: pair.transfers,
  estimated: (pair.flags & FLAG_ESTIMATED) !== 0,
});

const pickSample = (d: PairDelta) => ({
  firstAt: d.firstAt,
  sampleOrigin: d.sampleOrigin,
  samplePosition: d.samplePosition,
  sampleTx: d.sampleTx,
});

function addTo(totals: SideTotals, delta: Pick<PairDelta, 'usd' | 'transfers' | 'unpriced' | 'estimated'>, sign: 1 | -1): void {
  totals.transfers += sign * delta.transfers;
  totals.usd += sign * delta.usd;
  totals.unpriced += sign * delta.unpriced;
  if (sign > 0) totals.estimated ||= delta.estimated;
}

/**
 * A counterparty not kept yet (new, or in the remainder): kept while the owner keeps fewer than the bound;
 * past it, only if it outweighs the lightest kept one, which then goes to the remainder. So the kept ones
 * stay the heaviest as values grow, whatever the order transfers arrive in.
 */
function keep(
  dbs: GraphDbs,
  network: Network,
  at: { owner: number; side: FlowDirection; row: RankedRow; pair: PairRecord; totals: SideTotals },
): void {
  const { owner, side, row, pair, totals } = at;
  if (totals.kept < dbs.superNodeBound) {
    totals.kept += 1;
  } else {
    const lightest = dbs.lightest(network, owner, side);
    if (!lightest || !ranksBefore(row, lightest)) {
      pair.flags |= restFlag(side);
      return;
    }
    dbs.demote(network, owner, side, lightest);
  }
  pair.flags &= ~restFlag(side);
  dbs.rank(network, owner, side, row);
}

/** Undoes the journaled transfers of blocks from `fromBlock` on. */
export function revertFrom(dbs: GraphDbs, network: Network, fromBlock: number): number {
  const start = journalKey(network, fromBlock * BLOCK_POSITIONS);
  const end = journalKey(network, Number.MAX_SAFE_INTEGER);
  const deltas = new Map<string, PairDelta>();
  const perDataset = new Map<number, number>();
  const undone: Buffer[] = [];
  for (const { key, value } of dbs.journal.getRange({ start, end })) {
    const entry = decodeJournal(value);
    const id = `${entry.from}:${entry.to}`;
    let delta = deltas.get(id);
    if (!delta) deltas.set(id, (delta = { from: entry.from, to: entry.to, ...emptyPair(), estimated: false }));
    delta.usd += entry.usd ?? 0;
    delta.transfers += 1;
    if (entry.usd === null) delta.unpriced += 1;
    perDataset.set(entry.dataset, (perDataset.get(entry.dataset) ?? 0) + 1);
    undone.push(Buffer.from(key));
  }
  for (const key of undone) {
    dbs.journal.removeSync(key);
    dbs.seen.removeSync(seenKey(network, 0, readPosition(key, 1)));
  }
  forgetUnitsFrom(dbs, network, fromBlock);
  const latest = latestRevertible(dbs, network);
  const nodes = dbs.newNodeMap();
  for (const delta of deltas.values()) subtract(dbs, network, nodes, delta, latest);
  nodes.flush(network);
  for (const [dataset, count] of perDataset) {
    const coverage = dbs.coverage(network, dataset);
    if (coverage) dbs.putCoverage(network, dataset, { ...coverage, transfers: coverage.transfers - count });
  }
  return undone.length;
}

function subtract(dbs: GraphDbs, network: Network, nodes: NodeMap, delta: PairDelta, latest: LatestTimes): void {
  const old = dbs.pair(network, delta.from, delta.to);
  if (!old) throw new Error(`graph store: a journaled transfer without its pair (${network} ${delta.from} → ${delta.to})`);
  const pair = { ...old, usd: old.usd - delta.usd, transfers: old.transfers - delta.transfers, unpriced: old.unpriced - delta.unpriced };
  pair.lastAt = Math.max(pair.settledLastAt, latest.pairs.get(`${delta.from}:${delta.to}`) ?? Number.NEGATIVE_INFINITY);
  for (const side of SIDES) {
    const { owner, counterparty } = endOf(delta, side);
    const node = nodes.get(network, owner);
    addTo(node[side], delta, -1);
    node.lastAt = Math.max(node.settledLastAt, latest.nodes.get(owner) ?? Number.NEGATIVE_INFINITY);
    const kept = !(old.flags & restFlag(side));
    if (kept) dbs.unrank(network, owner, side, rowOf(counterparty, old));
    if (pair.transfers === 0) {
      node[side].counterparties -= 1;
      if (kept) node[side].kept -= 1;
    } else if (kept) {
      dbs.rank(network, owner, side, rowOf(counterparty, pair));
    }
  }
  dbs.putPair(network, delta.from, delta.to, pair);
}

interface LatestTimes {
  readonly pairs: Map<string, number>;
  readonly nodes: Map<number, number>;
}

/** The latest time per pair and per address over the journal that remains (a few blocks' worth). */
function latestRevertible(dbs: GraphDbs, network: Network): LatestTimes {
  const latest: LatestTimes = { pairs: new Map(), nodes: new Map() };
  const raise = <K>(map: Map<K, number>, key: K, at: number) => map.set(key, Math.max(map.get(key) ?? Number.NEGATIVE_INFINITY, at));
  for (const { value } of dbs.journal.getRange({ start: journalKey(network, 0), end: journalKey(network, Number.MAX_SAFE_INTEGER) })) {
    const entry = decodeJournal(value);
    raise(latest.pairs, `${entry.from}:${entry.to}`, entry.at);
    raise(latest.nodes, entry.from, entry.at);
    raise(latest.nodes, entry.to, entry.at);
  }
  return latest;
}

/** Makes the journaled transfers through `block` final: their times become settled, their entries go. */
export function finalizeThrough(dbs: GraphDbs, network: Network, block: number): void {
  if (block < 0) return;
  const start = journalKey(network, 0);
  const end = journalKey(network, (block + 1) * BLOCK_POSITIONS);
  const pairs = new Map<string, { from: number; to: number; at: number }>();
  const done: Buffer[] = [];
  for (const { key, value } of dbs.journal.getRange({ start, end })) {
    const entry = decodeJournal(value);
    const id = `${entry.from}:${entry.to}`;
    const seen = pairs.get(id);
    if (!seen || seen.at < entry.at) pairs.set(id, { from: entry.from, to: entry.to, at: entry.at });
    done.push(Buffer.from(key));
  }
  if (done.length === 0) return;
  const nodes = dbs.newNodeMap();
  for (const { from, to, at } of pairs.values()) {
    const pair = dbs.pair(network, from, to);
    if (pair) dbs.putPair(network, from, to, { ...pair, settledLastAt: Math.max(pair.settledLastAt, at) });
    for (const id of [from, to]) {
      const node = nodes.get(network, id);
      node.settledLastAt = Math.max(node.settledLastAt, at);
    }
  }
  nodes.flush(network);
  finalizeUnits(
    dbs,
    network,
    done.map((key) => readPosition(key, 1)),
  );
  for (const key of done) dbs.journal.removeSync(key);
}
