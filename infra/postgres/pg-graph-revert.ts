import { BLOCK_POSITIONS } from '../../domain/ports/transfer-graph.port.js';
import type { Network } from '../../domain/shared/network.js';
import { netId, UNIT_FINAL } from './pg-graph-fold.js';
import type { Query } from './pg-graph-query.js';

/**
 * Undoes the journaled transfers of `network` from `fromBlock` on, as the LMDB revert does: sums and counts
 * subtracted exactly, an edge or node left with no transfer deleted (with its counterparty and kept counts),
 * last times recomputed from the settled ones and what the journal still holds; the seen keys and the
 * revertible units' marks of those blocks go, so their replacements fold.
 */

interface JournalRow {
  readonly position: string;
  readonly sender: string;
  readonly recipient: string;
  readonly usd: string | null;
  readonly dataset: number;
}

export async function revertSql(q: Query, s: string, network: Network, fromBlock: number): Promise<number> {
  const net = netId(network);
  const undone = await q<JournalRow>(
    `DELETE FROM ${s}.journal WHERE network = $1 AND position >= $2 RETURNING position, sender, recipient, usd, dataset`,
    [net, fromBlock * BLOCK_POSITIONS],
  );
  await q(`DELETE FROM ${s}.units WHERE network = $1 AND block >= $2 AND state & ${UNIT_FINAL} = 0`, [net, fromBlock]);
  if (undone.length === 0) return 0;
  await q(`DELETE FROM ${s}.seen WHERE network = $1 AND origin = 0 AND position = ANY($2::bigint[])`, [net, undone.map((r) => r.position)]);

  const pairs = new Map<string, { from: string; to: string; usd: number; transfers: number; unpriced: number }>();
  const perDataset = new Map<number, number>();
  for (const row of undone) {
    const key = `${row.sender}\n${row.recipient}`;
    let pair = pairs.get(key);
    if (!pair) pairs.set(key, (pair = { from: row.sender, to: row.recipient, usd: 0, transfers: 0, unpriced: 0 }));
    pair.usd += Number(row.usd ?? 0);
    pair.transfers += 1;
    if (row.usd === null) pair.unpriced += 1;
    perDataset.set(row.dataset, (perDataset.get(row.dataset) ?? 0) + 1);
  }
  const addresses = [...new Set([...pairs.values()].flatMap((p) => [p.from, p.to]))].sort();
  // The nodes first (lock order of the fold), then the edges' sums and last times.
  await q(`SELECT 1 FROM ${s}.nodes WHERE network = $1 AND address = ANY($2::text[]) ORDER BY address FOR UPDATE`, [net, addresses]);
  const sides = [...pairs.values()].flatMap((p) => [
    { owner: p.from, side: 1, counterparty: p.to, p },
    { owner: p.to, side: 0, counterparty: p.from, p },
  ]);
  const edges = await q<{ owner: string; side: number; transfers: string; kept: boolean }>(
    `UPDATE ${s}.edges AS e SET usd = e.usd - u.usd, transfers = e.transfers - u.transfers, unpriced = e.unpriced - u.unpriced,
       last_at = coalesce(greatest(e.settled_last_at, (SELECT max(j.at) FROM ${s}.journal AS j
         WHERE j.network = $1 AND j.sender = (CASE WHEN u.side = 1 THEN u.owner ELSE u.counterparty END)
           AND j.recipient = (CASE WHEN u.side = 1 THEN u.counterparty ELSE u.owner END))), e.last_at)
     FROM unnest($2::text[], $3::smallint[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[]) AS u(owner, side, counterparty, usd, transfers, unpriced)
     WHERE e.network = $1 AND e.owner = u.owner AND e.side = u.side AND e.counterparty = u.counterparty
     RETURNING e.owner, e.side, e.transfers, e.kept`,
    [
      net,
      sides.map((x) => x.owner),
      sides.map((x) => x.side),
      sides.map((x) => x.counterparty),
      sides.map((x) => x.p.usd),
      sides.map((x) => x.p.transfers),
      sides.map((x) => x.p.unpriced),
    ],
  );
  if (edges.length !== sides.length) throw new Error(`graph store: journaled transfers without their edges on ${network}`);
  await q(`DELETE FROM ${s}.edges WHERE network = $1 AND owner = ANY($2::text[]) AND transfers = 0`, [net, addresses]);

  const gone = new Map<string, { in: [number, number]; out: [number, number] }>();
  for (const edge of edges) {
    if (Number(edge.transfers) !== 0) continue;
    let node = gone.get(edge.owner);
    if (!node) gone.set(edge.owner, (node = { in: [0, 0], out: [0, 0] }));
    const counts = node[edge.side === 1 ? 'out' : 'in'];
    counts[0] += 1;
    if (edge.kept) counts[1] += 1;
  }
  const totals = addresses.map((address) => {
    const sum = { inT: 0, inU: 0, inP: 0, outT: 0, outU: 0, outP: 0 };
    for (const p of pairs.values()) {
      if (p.to === address) Object.assign(sum, { inT: sum.inT + p.transfers, inU: sum.inU + p.usd, inP: sum.inP + p.unpriced });
      if (p.from === address) Object.assign(sum, { outT: sum.outT + p.transfers, outU: sum.outU + p.usd, outP: sum.outP + p.unpriced });
    }
    const g = gone.get(address) ?? { in: [0, 0], out: [0, 0] };
    return { ...sum, inCp: g.in[0], inKept: g.in[1], outCp: g.out[0], outKept: g.out[1] };
  });
  const column = (f: (t: (typeof totals)[number]) => number) => totals.map(f);
  await q(
    `UPDATE ${s}.nodes AS n SET
       in_transfers = n.in_transfers - u.in_t, in_usd = n.in_usd - u.in_u, in_unpriced = n.in_unpriced - u.in_p,
       in_counterparties = n.in_counterparties - u.in_cp, in_kept = n.in_kept - u.in_kept,
       out_transfers = n.out_transfers - u.out_t, out_usd = n.out_usd - u.out_u, out_unpriced = n.out_unpriced - u.out_p,
       out_counterparties = n.out_counterparties - u.out_cp, out_kept = n.out_kept - u.out_kept,
       last_at = coalesce(greatest(n.settled_last_at, (SELECT max(j.at) FROM ${s}.journal AS j
         WHERE j.network = $1 AND (j.sender = u.address OR j.recipient = u.address))), n.last_at)
     FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
       $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[])
       AS u(address, in_t, in_u, in_p, in_cp, in_kept, out_t, out_u, out_p, out_cp, out_kept)
     WHERE n.network = $1 AND n.address = u.address`,
    [
      net,
      addresses,
      column((t) => t.inT),
      column((t) => t.inU),
      column((t) => t.inP),
      column((t) => t.inCp),
      column((t) => t.inKept),
      column((t) => t.outT),
      column((t) => t.outU),
      column((t) => t.outP),
      column((t) => t.outCp),
      column((t) => t.outKept),
    ],
  );
  await q(`DELETE FROM ${s}.nodes WHERE network = $1 AND address = ANY($2::text[]) AND in_transfers + out_transfers = 0`, [net, addresses]);
  for (const [dataset, count] of perDataset) await q(`UPDATE ${s}.datasets SET transfers = transfers - $2 WHERE id = $1`, [dataset, count]);
  return undone.length;
}
