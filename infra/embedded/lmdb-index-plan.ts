import { indexFields, type Doc, type DocQuery, type IndexSpec } from '../../domain/ports/read-store.port.js';

/**
 * Secondary indexes of the LMDB read store, and which one a query walks. A collection declares its indexes
 * (IndexSpec: one field, or fields in order); every document has one key per declared index,
 * [collection, name, value of each field…, id], the name being the fields joined by `>`. So `where f = x,
 * orderBy g` on a declared ['f', 'g'] (a user's usage rows, newest first) walks the index in order and
 * stops after skip + limit documents, however many the user has. Index order is LMDB's key order: null <
 * booleans < numbers < strings, which agrees with the port's order (doc-query.ts) for every field a read
 * model sorts on (no boolean sorts). Ties are in id order, as the port breaks them.
 */

type KeyPart = string | number | boolean | null;
/** Long strings are indexed by a prefix: candidates are re-checked against the document anyway. */
const MAX_INDEXED_STRING = 200;

function keyPart(value: unknown): KeyPart {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.length > MAX_INDEXED_STRING ? value.slice(0, MAX_INDEXED_STRING) : value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  return null;
}

/** The stored name of an index: its fields joined by `>`. */
export const indexName = (spec: IndexSpec): string => indexFields(spec).join('>');

export function indexKeys(collection: string, indexes: readonly IndexSpec[], id: string, doc: Doc): KeyPart[][] {
  return indexes.map((spec) => [collection, indexName(spec), ...indexFields(spec).map((field) => keyPart(doc[field])), id]);
}

const sameKey = (a: readonly KeyPart[], b: readonly KeyPart[]): boolean => a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * The index keys a document's change removes and adds: only those whose values changed. A document updated
 * in place (a day's usage, a key's last use) keeps its index entries, so its write touches none of them.
 */
export function changedIndexKeys(
  collection: string,
  indexes: readonly IndexSpec[],
  id: string,
  before: Doc | null,
  after: Doc | null,
): { readonly removed: KeyPart[][]; readonly added: KeyPart[][] } {
  const old = before === null ? [] : indexKeys(collection, indexes, id, before);
  const next = after === null ? [] : indexKeys(collection, indexes, id, after);
  // Both lists come from the same indexes in the same order: the i-th keys belong to the same index.
  if (old.length === 0 || next.length === 0) return { removed: old, added: next };
  const removed: KeyPart[][] = [];
  const added: KeyPart[][] = [];
  old.forEach((key, i) => {
    const replacement = next[i] ?? [];
    if (sameKey(key, replacement)) return;
    removed.push(key);
    added.push(replacement);
  });
  return { removed, added };
}

export interface IndexKey {
  readonly name: string;
  /** Equality values that fix the key's leading parts. */
  readonly prefix: readonly KeyPart[];
  /** Inclusive lower bound on the next part (a `since`). */
  readonly from?: string;
}

export interface QueryPlan {
  /** null: every document of the collection. */
  readonly index: IndexKey | null;
  /** The index yields documents in the query's order (skip/limit can stream). */
  readonly ordered: boolean;
  readonly reverse: boolean;
  /** The index range alone decides `where` and `since`: counts and skips need no document. */
  readonly covered: boolean;
}

type Query = Pick<DocQuery, 'where' | 'since' | 'orderBy'>;

/** A declared index as a query sees it: how many of its leading fields the query's `where` fixes. */
interface Candidate {
  readonly fields: readonly string[];
  readonly fixed: number;
}

/** Whether `index` decides every condition of the query exactly (prefix strings indexed whole). */
function covers(index: IndexKey | null, query: Pick<DocQuery, 'where' | 'since'>): boolean {
  // Without an index the documents themselves are walked (tombstones among them): never covered.
  if (index === null) return false;
  const names = index.name.split('>');
  const fixed = names.slice(0, index.prefix.length);
  const where = Object.entries(query.where ?? {});
  if (
    where.length !== fixed.length ||
    !where.every(([field, value]) => fixed.includes(field) && (typeof value !== 'string' || value.length <= MAX_INDEXED_STRING))
  )
    return false;
  if (query.since === undefined) return index.from === undefined;
  return index.from !== undefined && names[index.prefix.length] === query.since.field && query.since.value.length <= MAX_INDEXED_STRING;
}

export function planQuery(indexes: readonly IndexSpec[], query: Query): QueryPlan {
  const plan = choosePlan(indexes, query);
  return { ...plan, covered: covers(plan.index, query) };
}

/** The candidate fixing the most leading fields (the first declared among equals). */
const mostFixed = (candidates: readonly Candidate[]): Candidate | undefined =>
  candidates.reduce<Candidate | undefined>((best, c) => (best === undefined || c.fixed > best.fixed ? c : best), undefined);

/**
 * In order of preference: an index whose fixed leading fields are followed by the order field (walked in
 * order); one whose fields are all fixed, the order field among them (equal values: id order); one fixing
 * some leading fields (unordered, with the `since` bound when its next field is the range's); one led by the
 * order field or the range's field (every document walked); else every document.
 */
function choosePlan(indexes: readonly IndexSpec[], query: Query): Omit<QueryPlan, 'covered'> {
  const where = query.where ?? {};
  const candidates = indexes.map((spec): Candidate => {
    const fields = indexFields(spec);
    let fixed = 0;
    while (fixed < fields.length && Object.hasOwn(where, fields[fixed] as string)) fixed += 1;
    return { fields, fixed };
  });
  const index = (c: Candidate, rangeField?: string): IndexKey => {
    const next = c.fields[c.fixed];
    const from = query.since !== undefined && next !== undefined && next === rangeField ? { from: query.since.value } : {};
    return { name: c.fields.join('>'), prefix: c.fields.slice(0, c.fixed).map((field) => keyPart(where[field])), ...from };
  };
  const order = query.orderBy;
  const reverse = order?.direction === 'desc';
  const since = query.since?.field;
  if (order !== undefined) {
    const walk = mostFixed(candidates.filter((c) => c.fixed > 0 && c.fields[c.fixed] === order.field));
    if (walk) return { ordered: true, reverse, index: index(walk, since) };
    const equal = mostFixed(candidates.filter((c) => c.fixed === c.fields.length && c.fields.includes(order.field)));
    if (equal) return { ordered: true, reverse, index: index(equal) };
  }
  const narrowed =
    mostFixed(candidates.filter((c) => c.fixed > 0 && since !== undefined && c.fields[c.fixed] === since)) ??
    mostFixed(candidates.filter((c) => c.fixed > 0));
  if (narrowed) return { ordered: false, reverse: false, index: index(narrowed, since) };
  if (order !== undefined) {
    const led = candidates.find((c) => c.fields[0] === order.field);
    if (led) return { ordered: true, reverse, index: index(led, since) };
  }
  const ranged = since === undefined ? undefined : candidates.find((c) => c.fields[0] === since);
  if (ranged) return { ordered: false, reverse: false, index: index(ranged, since) };
  return { ordered: false, reverse: false, index: null };
}
