import {
  BLOCK_POSITIONS,
  blockOfPosition,
  kindOfPosition,
  type FoldOutcome,
  type GraphTransfer,
  type TransferBatch,
} from '../../domain/ports/transfer-graph.port.js';
import { normalizeAddress } from '../../domain/shared/address.js';
import type { Network } from '../../domain/shared/network.js';
import { bulkCovers } from '../chain/graph/bulk/bulk-claim.js';
import { bulkStateSql } from './pg-graph-bulk-claim.js';
import { netId, sideId } from './pg-graph-net.js';
import type { Query } from './pg-graph-query.js';
import { newKeptRows, type EdgeRow } from './pg-graph-ranking.js';

/**
 * What a fold does to the PostgreSQL graph store, inside the caller's transaction (docs/ARCHITECTURE.md#the-transfer-graph):
 * the same rules as the LMDB fold (lmdb-graph-fold.ts, lmdb-fold-dedup.ts), set-based, a dozen statements
 * per batch whatever its size. Lock order, so that folds side by side wait rather than deadlock: the
 * batch's (block, kind) units (advisory locks), then its nodes, then its edges, each sorted.
 */

export { netId, sideId };
/** First key of the units' advisory locks ("GR"), beside the event store's "SV". */
const UNIT_LOCK_CLASS = 0x4752_0000;

export const UNIT_WHOLE = 1;
export const UNIT_PARTIAL = 2;
export const UNIT_FINAL = 4;

interface PairDelta {
  readonly from: string;
  readonly to: string;
  usd: number;
  transfers: number;
  unpriced: number;
  estimated: boolean;
  firstAt: number;
  lastAt: number;
  settledLastAt: number | null;
  sampleOrigin: number;
  samplePosition: number;
  sampleTx: string | null;
}

const toSeconds = (ms: number): number => Math.floor(ms / 1000);

export async function foldBatchSql(q: Query, s: string, bound: number, batch: TransferBatch): Promise<FoldOutcome> {
  const network = netId(batch.network);
  const dataset = await datasetId(q, s, batch);
  const origin = batch.positions === 'rows' ? dataset : 0;
  const bulk = batch.positions === 'rows' ? null : await bulkStateSql(q, s, batch.network);
  if (bulk?.state === 'loading') throw new Error(`graph store: a bulk load of ${batch.network} is under way; its transfers fold after it`);
  // Units a bulk load counted are not counted again (it recorded its blocks, not their positions: pg-graph-bulk-claim.ts).
  const candidates = batch.transfers
    .filter((t) => !bulk || !bulkCovers(bulk, t.position))
    .map((t) => ({ t, from: normalizeAddress(t.from), to: normalizeAddress(t.to) }))
    .filter((c) => c.from !== c.to);
  const fresh = await newPositions(
    q,
    s,
    batch,
    origin,
    candidates.map((c) => c.t),
  );
  const final = (t: GraphTransfer) =>
    batch.positions === 'rows' || batch.finalThrough === null || blockOfPosition(t.position) <= batch.finalThrough;
  const deltas = new Map<string, PairDelta>();
  const journal: { position: number; from: string; to: string; usd: number | null; at: number }[] = [];
  let firstAt = Number.POSITIVE_INFINITY;
  let lastAt = Number.NEGATIVE_INFINITY;
  let lastBlock = 0;
  for (const { t, from, to } of candidates) {
    if (!fresh.has(t.position)) continue;
    fresh.delete(t.position);
    const at = toSeconds(t.at);
    if (!final(t)) journal.push({ position: t.position, from, to, usd: t.usdMicros, at });
    const key = `${from}\n${to}`;
    let delta = deltas.get(key);
    if (!delta) {
      delta = {
        from,
        to,
        usd: 0,
        transfers: 0,
        unpriced: 0,
        estimated: false,
        firstAt: at,
        lastAt: at,
        settledLastAt: null,
        sampleOrigin: origin,
        samplePosition: t.position,
        sampleTx: t.txHash,
      };
      deltas.set(key, delta);
    }
    delta.usd += t.usdMicros ?? 0;
    delta.transfers += 1;
    if (t.usdMicros === null) delta.unpriced += 1;
    delta.estimated ||= t.estimated;
    if (at < delta.firstAt || (at === delta.firstAt && t.position < delta.samplePosition))
      Object.assign(delta, { firstAt: at, samplePosition: t.position, sampleTx: t.txHash });
    delta.lastAt = Math.max(delta.lastAt, at);
    if (final(t)) delta.settledLastAt = Math.max(delta.settledLastAt ?? at, at);
    firstAt = Math.min(firstAt, at);
    lastAt = Math.max(lastAt, at);
    lastBlock = Math.max(lastBlock, blockOfPosition(t.position));
  }
  const folded = [...deltas.values()].reduce((n, d) => n + d.transfers, 0);
  if (journal.length > 0)
    await q(
      `INSERT INTO ${s}.journal (network, position, sender, recipient, usd, at, dataset)
       SELECT $1, * , $7 FROM unnest($2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[]) ON CONFLICT DO NOTHING`,
      [
        network,
        journal.map((j) => j.position),
        journal.map((j) => j.from),
        journal.map((j) => j.to),
        journal.map((j) => j.usd),
        journal.map((j) => j.at),
        dataset,
      ],
    );
  if (deltas.size > 0) await applyDeltas(q, s, bound, network, [...deltas.values()]);
  if (folded > 0) {
    const chain = batch.positions !== 'rows';
    await q(
      `UPDATE ${s}.datasets SET transfers = transfers + $2, from_at = least(from_at, $3), to_at = greatest(to_at, $4),
         kind = coalesce($5, kind, $6), version = coalesce($7, version), up_to_block = greatest(up_to_block, $8)
       WHERE id = $1`,
      [
        dataset,
        folded,
        firstAt,
        lastAt,
        batch.kind ?? null,
        chain ? 'ingested_blocks' : 'sample',
        batch.version ?? null,
        chain ? lastBlock : null,
      ],
    );
  }
  if (batch.finalThrough !== null && batch.positions !== 'rows') await finalizeSql(q, s, batch.network, batch.finalThrough);
  return { folded, skipped: batch.transfers.length - folded };
}

export async function datasetId(q: Query, s: string, batch: TransferBatch): Promise<number> {
  const params = [netId(batch.network), batch.dataset];
  const found = await q<{ id: number }>(`SELECT id FROM ${s}.datasets WHERE network = $1 AND name = $2`, params);
  if (found[0]) return found[0].id;
  await q(`INSERT INTO ${s}.datasets (network, name, caveat) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [...params, batch.caveat]);
  const made = await q<{ id: number }>(`SELECT id FROM ${s}.datasets WHERE network = $1 AND name = $2`, params);
  if (!made[0]) throw new Error(`graph store: data set ${batch.dataset} was not recorded`);
  return made[0].id;
}

/** The positions of `transfers` not folded before, marked folded now (as lmdb-fold-dedup.ts: units of whole blocks, keys otherwise). */
async function newPositions(
  q: Query,
  s: string,
  batch: TransferBatch,
  origin: number,
  transfers: readonly GraphTransfer[],
): Promise<Set<number>> {
  const network = netId(batch.network);
  const seen = async (positions: number[]): Promise<number[]> => {
    if (positions.length === 0) return [];
    const rows = await q<{ position: string }>(
      `INSERT INTO ${s}.seen (network, origin, position) SELECT $1, $2, p FROM unnest($3::bigint[]) AS p ORDER BY p
       ON CONFLICT DO NOTHING RETURNING position`,
      [network, origin, [...new Set(positions)].sort((a, b) => a - b)],
    );
    return rows.map((r) => Number(r.position));
  };
  if (batch.positions === 'rows') return new Set(await seen(transfers.map((t) => t.position)));
  const unitOf = (position: number) => blockOfPosition(position) * 2 + kindOfPosition(position);
  const units = [...new Set(transfers.map((t) => unitOf(t.position)))].sort((a, b) => a - b);
  if (units.length === 0) return new Set();
  await q(`SELECT pg_advisory_xact_lock($1, u) FROM (SELECT unnest($2::int[]) AS u ORDER BY 1) AS units`, [
    UNIT_LOCK_CLASS + network,
    units,
  ]);
  const stored = await q<{ unit: string; state: number }>(
    `SELECT u.block * 2 + u.kind AS unit, u.state FROM unnest($2::bigint[]) AS i(unit)
     JOIN ${s}.units AS u ON u.network = $1 AND u.block = i.unit / 2 AND u.kind = i.unit % 2`,
    [network, units],
  );
  const states = new Map(stored.map((r) => [Number(r.unit), r.state]));
  const changed: [number, number][] = [];
  for (const unit of units) {
    const state = states.get(unit) ?? 0;
    const block = Math.floor(unit / 2);
    const final = batch.finalThrough === null || block <= batch.finalThrough;
    const mark = (batch.positions === 'blocks' ? UNIT_WHOLE : UNIT_PARTIAL) | (final ? UNIT_FINAL : 0);
    if (!(state & UNIT_WHOLE) && (state | mark) !== state) changed.push([unit, state | mark]);
  }
  if (changed.length > 0)
    await q(
      `INSERT INTO ${s}.units (network, block, kind, state) SELECT $1, u / 2, u % 2, st FROM unnest($2::bigint[], $3::smallint[]) AS i(u, st)
       ON CONFLICT (network, block, kind) DO UPDATE SET state = excluded.state`,
      [network, changed.map(([u]) => u), changed.map(([, st]) => st)],
    );
  const fresh = new Set<number>();
  const keyed: number[] = [];
  for (const t of transfers) {
    const state = states.get(unitOf(t.position)) ?? 0;
    if (state & UNIT_WHOLE) continue;
    if (batch.positions === 'blocks' && !(state & UNIT_PARTIAL)) fresh.add(t.position);
    else keyed.push(t.position);
  }
  for (const position of await seen(keyed)) fresh.add(position);
  return fresh;
}

/** Nodes first (their totals, and a lock on each), then both sides of every edge, then which edges are kept. */
async function applyDeltas(q: Query, s: string, bound: number, network: number, deltas: readonly PairDelta[]): Promise<void> {
  const nodes = nodeDeltas(deltas);
  const addresses = [...nodes.keys()].sort();
  const column = <T>(f: (n: NodeDelta) => T) => addresses.map((a) => f(nodes.get(a) as NodeDelta));
  const before = await q<{ address: string; in_kept: string; out_kept: string; in_counterparties: string; out_counterparties: string }>(
    `INSERT INTO ${s}.nodes AS n (network, address, in_transfers, in_usd, in_unpriced, in_estimated,
       out_transfers, out_usd, out_unpriced, out_estimated, first_at, last_at, settled_last_at)
     SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::boolean[],
       $7::bigint[], $8::bigint[], $9::bigint[], $10::boolean[], $11::bigint[], $12::bigint[], $13::bigint[])
     ON CONFLICT (network, address) DO UPDATE SET
       in_transfers = n.in_transfers + excluded.in_transfers, in_usd = n.in_usd + excluded.in_usd,
       in_unpriced = n.in_unpriced + excluded.in_unpriced, in_estimated = n.in_estimated OR excluded.in_estimated,
       out_transfers = n.out_transfers + excluded.out_transfers, out_usd = n.out_usd + excluded.out_usd,
       out_unpriced = n.out_unpriced + excluded.out_unpriced, out_estimated = n.out_estimated OR excluded.out_estimated,
       first_at = least(n.first_at, excluded.first_at), last_at = greatest(n.last_at, excluded.last_at),
       settled_last_at = greatest(n.settled_last_at, excluded.settled_last_at)
     RETURNING address, in_kept, out_kept, in_counterparties, out_counterparties`,
    [
      network,
      addresses,
      ...(['in', 'out'] as const).flatMap((side) => [
        column((n) => n[side].transfers),
        column((n) => n[side].usd),
        column((n) => n[side].unpriced),
        column((n) => n[side].estimated),
      ]),
      column((n) => n.firstAt),
      column((n) => n.lastAt),
      column((n) => n.settledLastAt),
    ],
  );
  const kept = new Map<string, { kept: number; counterparties: number }>();
  for (const row of before)
    for (const side of ['in', 'out'] as const)
      kept.set(`${row.address}\n${sideId(side)}`, {
        kept: Number(row[`${side}_kept`]),
        counterparties: Number(row[`${side}_counterparties`]),
      });

  // Both sides of each pair, sorted by (owner, side, counterparty); an owner-side with room and no remainder keeps them all.
  const edges = deltas
    .flatMap((d) => [
      { owner: d.from, side: 1, counterparty: d.to, d },
      { owner: d.to, side: 0, counterparty: d.from, d },
    ])
    .sort((a, b) =>
      a.owner !== b.owner ? (a.owner < b.owner ? -1 : 1) : a.side !== b.side ? a.side - b.side : a.counterparty < b.counterparty ? -1 : 1,
    );
  const touched = new Map<string, number>();
  for (const e of edges) touched.set(`${e.owner}\n${e.side}`, (touched.get(`${e.owner}\n${e.side}`) ?? 0) + 1);
  const roomy = (key: string) => {
    const k = kept.get(key) ?? { kept: 0, counterparties: 0 };
    return k.kept === k.counterparties && k.kept + (touched.get(key) ?? 0) <= bound;
  };
  const e = <T>(f: (x: (typeof edges)[number]) => T) => edges.map(f);
  const upserted = await q<EdgeRow>(
    `INSERT INTO ${s}.edges AS e (network, owner, side, counterparty, usd, transfers, unpriced, estimated, first_at, last_at,
       settled_last_at, sample_origin, sample_position, sample_tx, kept)
     SELECT $1, * FROM unnest($2::text[], $3::smallint[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::boolean[],
       $9::bigint[], $10::bigint[], $11::bigint[], $12::int[], $13::bigint[], $14::text[], $15::boolean[])
     ON CONFLICT (network, owner, side, counterparty) DO UPDATE SET
       usd = e.usd + excluded.usd, transfers = e.transfers + excluded.transfers, unpriced = e.unpriced + excluded.unpriced,
       estimated = e.estimated OR excluded.estimated, last_at = greatest(e.last_at, excluded.last_at),
       settled_last_at = greatest(e.settled_last_at, excluded.settled_last_at),
       first_at = CASE WHEN ${EARLIER} THEN excluded.first_at ELSE e.first_at END,
       sample_origin = CASE WHEN ${EARLIER} THEN excluded.sample_origin ELSE e.sample_origin END,
       sample_position = CASE WHEN ${EARLIER} THEN excluded.sample_position ELSE e.sample_position END,
       sample_tx = CASE WHEN ${EARLIER} THEN excluded.sample_tx ELSE e.sample_tx END
     RETURNING owner, side, counterparty, usd, transfers, kept`,
    [
      network,
      e((x) => x.owner),
      e((x) => x.side),
      e((x) => x.counterparty),
      e((x) => x.d.usd),
      e((x) => x.d.transfers),
      e((x) => x.d.unpriced),
      e((x) => x.d.estimated),
      e((x) => x.d.firstAt),
      e((x) => x.d.lastAt),
      e((x) => x.d.settledLastAt),
      e((x) => x.d.sampleOrigin),
      e((x) => x.d.samplePosition),
      e((x) => x.d.sampleTx),
      e((x) => roomy(`${x.owner}\n${x.side}`)),
    ],
  );
  const counts = new Map<string, { added: number; kept: number }>();
  const candidates = new Map<string, EdgeRow[]>();
  // An edge is new when it holds only this batch's transfers (a stored edge holds at least one: empty ones are deleted).
  const batchTransfers = new Map(edges.map((x) => [`${x.owner}\n${x.side}\n${x.counterparty}`, x.d.transfers]));
  for (const edge of upserted) {
    const row = { ...edge, inserted: Number(edge.transfers) === batchTransfers.get(`${edge.owner}\n${edge.side}\n${edge.counterparty}`) };
    const key = `${row.owner}\n${row.side}`;
    let count = counts.get(key);
    if (!count) counts.set(key, (count = { added: 0, kept: kept.get(key)?.kept ?? 0 }));
    if (row.inserted) count.added += 1;
    if (roomy(key)) {
      if (row.inserted) count.kept += 1;
    } else if (!row.kept) {
      const list = candidates.get(key) ?? [];
      list.push(row);
      candidates.set(key, list);
    }
  }
  const flips = await newKeptRows(q, s, bound, network, candidates, counts);
  if (flips.length > 0)
    await q(
      `UPDATE ${s}.edges AS e SET kept = u.kept FROM unnest($2::text[], $3::smallint[], $4::text[], $5::boolean[]) AS u(owner, side, counterparty, kept)
       WHERE e.network = $1 AND e.owner = u.owner AND e.side = u.side AND e.counterparty = u.counterparty`,
      [network, flips.map((f) => f.owner), flips.map((f) => f.side), flips.map((f) => f.counterparty), flips.map((f) => f.kept)],
    );
  const changed = [...counts.entries()].filter(([key, c]) => c.added > 0 || c.kept !== kept.get(key)?.kept);
  if (changed.length > 0) await updateCounts(q, s, network, changed);
}

/** The sample is the earliest transfer by (time, origin, position), as in the LMDB fold. */
const EARLIER = '(excluded.first_at, excluded.sample_origin, excluded.sample_position) < (e.first_at, e.sample_origin, e.sample_position)';

/** One row per address (an UPDATE ... FROM applies one matching row per target row, so both sides go together). */
async function updateCounts(q: Query, s: string, network: number, changed: [string, { added: number; kept: number }][]): Promise<void> {
  const perAddress = new Map<string, { in?: { added: number; kept: number }; out?: { added: number; kept: number } }>();
  for (const [key, c] of changed) {
    const [address, side] = key.split('\n') as [string, string];
    const row = perAddress.get(address) ?? {};
    row[side === '1' ? 'out' : 'in'] = c;
    perAddress.set(address, row);
  }
  const addresses = [...perAddress.keys()].sort();
  const column = (f: (r: { in?: { added: number; kept: number }; out?: { added: number; kept: number } }) => number | null) =>
    addresses.map((a) => f(perAddress.get(a) ?? {}));
  await q(
    `UPDATE ${s}.nodes AS n SET
       in_counterparties = n.in_counterparties + u.in_added, in_kept = coalesce(u.in_kept, n.in_kept),
       out_counterparties = n.out_counterparties + u.out_added, out_kept = coalesce(u.out_kept, n.out_kept)
     FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[]) AS u(address, in_added, in_kept, out_added, out_kept)
     WHERE n.network = $1 AND n.address = u.address`,
    [
      network,
      addresses,
      column((r) => r.in?.added ?? 0),
      column((r) => r.in?.kept ?? null),
      column((r) => r.out?.added ?? 0),
      column((r) => r.out?.kept ?? null),
    ],
  );
}

interface SideDelta {
  transfers: number;
  usd: number;
  unpriced: number;
  estimated: boolean;
}
interface NodeDelta {
  in: SideDelta;
  out: SideDelta;
  firstAt: number;
  lastAt: number;
  settledLastAt: number | null;
}

function nodeDeltas(deltas: readonly PairDelta[]): Map<string, NodeDelta> {
  const nodes = new Map<string, NodeDelta>();
  const side = (): SideDelta => ({ transfers: 0, usd: 0, unpriced: 0, estimated: false });
  for (const d of deltas) {
    for (const [address, direction] of [
      [d.from, 'out'],
      [d.to, 'in'],
    ] as const) {
      let node = nodes.get(address);
      if (!node) nodes.set(address, (node = { in: side(), out: side(), firstAt: d.firstAt, lastAt: d.lastAt, settledLastAt: null }));
      const totals = node[direction];
      totals.transfers += d.transfers;
      totals.usd += d.usd;
      totals.unpriced += d.unpriced;
      totals.estimated ||= d.estimated;
      node.firstAt = Math.min(node.firstAt, d.firstAt);
      node.lastAt = Math.max(node.lastAt, d.lastAt);
      if (d.settledLastAt !== null) node.settledLastAt = Math.max(node.settledLastAt ?? d.settledLastAt, d.settledLastAt);
    }
  }
  return nodes;
}

/** Makes the network's journaled transfers through `block` final: settled times, FINAL units, journal entries gone. */
export async function finalizeSql(q: Query, s: string, network: Network, block: number): Promise<void> {
  if (block < 0) return;
  const done = await q<{ position: string; sender: string; recipient: string; at: string }>(
    `DELETE FROM ${s}.journal WHERE network = $1 AND position < $2 RETURNING position, sender, recipient, at`,
    [netId(network), (block + 1) * BLOCK_POSITIONS],
  );
  if (done.length === 0) return;
  const pairs = new Map<string, { from: string; to: string; at: number }>();
  const nodes = new Map<string, number>();
  for (const row of done) {
    const at = Number(row.at);
    const key = `${row.sender}\n${row.recipient}`;
    if ((pairs.get(key)?.at ?? -Infinity) < at) pairs.set(key, { from: row.sender, to: row.recipient, at });
    for (const address of [row.sender, row.recipient]) nodes.set(address, Math.max(nodes.get(address) ?? at, at));
  }
  const sorted = [...nodes.keys()].sort();
  await q(
    `UPDATE ${s}.nodes AS n SET settled_last_at = greatest(n.settled_last_at, u.at)
     FROM (SELECT * FROM unnest($2::text[], $3::bigint[]) AS i(address, at) ORDER BY address) AS u WHERE n.network = $1 AND n.address = u.address`,
    [netId(network), sorted, sorted.map((a) => nodes.get(a))],
  );
  const sides = [...pairs.values()].flatMap((p) => [
    { owner: p.from, side: 1, counterparty: p.to, at: p.at },
    { owner: p.to, side: 0, counterparty: p.from, at: p.at },
  ]);
  await q(
    `UPDATE ${s}.edges AS e SET settled_last_at = greatest(e.settled_last_at, u.at)
     FROM unnest($2::text[], $3::smallint[], $4::text[], $5::bigint[]) AS u(owner, side, counterparty, at)
     WHERE e.network = $1 AND e.owner = u.owner AND e.side = u.side AND e.counterparty = u.counterparty`,
    [netId(network), sides.map((x) => x.owner), sides.map((x) => x.side), sides.map((x) => x.counterparty), sides.map((x) => x.at)],
  );
  const units = [...new Set(done.map((r) => blockOfPosition(Number(r.position)) * 2 + kindOfPosition(Number(r.position))))];
  await q(
    `UPDATE ${s}.units AS u SET state = u.state | ${UNIT_FINAL} FROM unnest($2::bigint[]) AS i(unit)
     WHERE u.network = $1 AND u.block = i.unit / 2 AND u.kind = i.unit % 2`,
    [netId(network), units],
  );
}
