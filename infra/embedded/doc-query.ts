import type { Doc, DocQuery } from '../../domain/ports/read-store.port.js';

/**
 * The query semantics of the read-store port as pure functions, matching what the MongoDB adapter gets from
 * the server: `where: { f: null }` also matches documents without `f`; `since` only matches string values
 * (ISO dates); documents missing the `orderBy` field sort first ascending, as Mongo sorts null lowest.
 */

type Filter = Pick<DocQuery, 'where' | 'since'>;

export function matches(doc: Doc, query: Filter): boolean {
  for (const [field, expected] of Object.entries(query.where ?? {})) {
    const actual = doc[field];
    if (expected === null ? actual !== null && actual !== undefined : actual !== expected) return false;
  }
  if (query.since !== undefined) {
    const actual = doc[query.since.field];
    if (typeof actual !== 'string' || actual < query.since.value) return false;
  }
  return true;
}

/** Mongo's order across the types a read model uses: missing/null < numbers < strings < booleans. */
function rank(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number' || typeof value === 'bigint') return 1;
  if (typeof value === 'string') return 2;
  if (typeof value === 'boolean') return 4;
  return 3;
}

export function compareValues(a: unknown, b: unknown): number {
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  if (rank(a) === 0) return 0;
  if (typeof a === 'object') return compareValues(JSON.stringify(a), JSON.stringify(b));
  // Equal ranks past the ones above: both are numbers, both strings or both booleans.
  const [x, y] = [a as number | string | boolean, b as number | string | boolean];
  return x < y ? -1 : x > y ? 1 : 0;
}

export interface Row<D extends Doc> {
  readonly id: string;
  readonly doc: D;
}

/** The matching rows in the query's order, ties broken by id so that pages are stable. */
export function sortRows<D extends Doc>(rows: Row<D>[], query: DocQuery): Row<D>[] {
  const hits = rows.filter((row) => matches(row.doc, query));
  const order = query.orderBy;
  if (order === undefined) return hits;
  const sign = order.direction === 'asc' ? 1 : -1;
  return hits.sort((x, y) => sign * (compareValues(x.doc[order.field], y.doc[order.field]) || compareValues(x.id, y.id)));
}
