import type { Query } from './pg-graph-query.js';

/**
 * Which counterparties a super-node keeps (docs/ARCHITECTURE.md#the-transfer-graph): its `bound` heaviest, by
 * USD, then transfers, then the lower address. Values only grow between folds, so after a batch the kept
 * rows are the heaviest `bound` of the rows kept before and the batch's candidates (rows it touched that
 * were not kept): the ones that go are among the candidates and as many of the lightest kept rows.
 */

export interface EdgeRow {
  readonly owner: string;
  readonly side: number;
  readonly counterparty: string;
  readonly usd: string | number;
  readonly transfers: string | number;
  readonly kept: boolean;
}

export interface KeptFlip {
  readonly owner: string;
  readonly side: number;
  readonly counterparty: string;
  readonly kept: boolean;
}

const heavierFirst = (a: EdgeRow, b: EdgeRow): number =>
  Number(b.usd) - Number(a.usd) || Number(b.transfers) - Number(a.transfers) || (a.counterparty < b.counterparty ? -1 : 1);

/**
 * The kept flags to change, per owner-side with candidates (`counts` holds each one's kept count, updated
 * here). One statement reads the lightest kept rows of every owner-side past its bound.
 */
export async function newKeptRows(
  q: Query,
  s: string,
  bound: number,
  network: number,
  candidates: ReadonlyMap<string, EdgeRow[]>,
  counts: Map<string, { added: number; kept: number }>,
): Promise<KeptFlip[]> {
  const flips: KeptFlip[] = [];
  const crowded: { key: string; owner: string; side: number; drop: number }[] = [];
  for (const [key, rows] of candidates) {
    const count = counts.get(key);
    if (!count) continue;
    const drop = count.kept + rows.length - bound;
    if (drop <= 0) {
      for (const row of rows) flips.push({ ...row, kept: true });
      count.kept += rows.length;
    } else {
      const [owner, side] = key.split('\n') as [string, string];
      crowded.push({ key, owner, side: Number(side), drop: Math.min(drop, count.kept) });
    }
  }
  if (crowded.length === 0) return flips;
  const lightest = await q<EdgeRow>(
    `SELECT c.owner, c.side, l.counterparty, l.usd, l.transfers, true AS kept
     FROM unnest($2::text[], $3::smallint[], $4::int[]) AS c(owner, side, drop)
     CROSS JOIN LATERAL (
       SELECT e.counterparty, e.usd, e.transfers FROM ${s}.edges AS e
       WHERE e.network = $1 AND e.owner = c.owner AND e.side = c.side AND e.kept
       ORDER BY e.usd, e.transfers, e.counterparty DESC LIMIT c.drop
     ) AS l`,
    [network, crowded.map((c) => c.owner), crowded.map((c) => c.side), crowded.map((c) => c.drop)],
  );
  for (const { key } of crowded) {
    const count = counts.get(key) as { kept: number };
    const rows = candidates.get(key) ?? [];
    const light = lightest.filter((row) => `${row.owner}\n${row.side}` === key);
    const ranked = [...rows, ...light].sort(heavierFirst);
    const drop = count.kept + rows.length - bound;
    const keep = new Set(ranked.slice(0, ranked.length - drop));
    for (const row of rows) if (keep.has(row)) flips.push({ ...row, kept: true });
    for (const row of light) if (!keep.has(row)) flips.push({ ...row, kept: false });
    count.kept = bound;
  }
  return flips;
}
