import { present } from '../../domain/shared/present.js';
import type { Doc, DocQuery } from '../../domain/ports/read-store.port.js';

/**
 * Secondary indexes of the LMDB read store, and which one a query walks. For the declared fields F of a
 * collection, every document has one key per field, [collection, f, value, id], and one per ordered pair
 * of distinct fields, [collection, 'f>g', value of f, value of g, id]. So `where f = x, orderBy g` (a
 * user's usage rows, newest first) walks the pair index in order and stops after skip + limit documents,
 * however many the user has. Index order is LMDB's key order: null < booleans < numbers < strings, which
 * agrees with the port's order (doc-query.ts) for every field a read model sorts on (no boolean sorts).
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

export function indexKeys(collection: string, fields: readonly string[], id: string, doc: Doc): KeyPart[][] {
  const keys: KeyPart[][] = [];
  for (const f of fields) {
    keys.push([collection, f, keyPart(doc[f]), id]);
    for (const g of fields) if (g !== f) keys.push([collection, `${f}>${g}`, keyPart(doc[f]), keyPart(doc[g]), id]);
  }
  return keys;
}

const sameKey = (a: readonly KeyPart[], b: readonly KeyPart[]): boolean => a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * The index keys a document's change removes and adds: only those whose values changed. A document updated
 * in place (a day's usage, a key's last use) keeps its index entries, so its write touches none of them.
 */
export function changedIndexKeys(
  collection: string,
  fields: readonly string[],
  id: string,
  before: Doc | null,
  after: Doc | null,
): { readonly removed: KeyPart[][]; readonly added: KeyPart[][] } {
  const old = before === null ? [] : indexKeys(collection, fields, id, before);
  const next = after === null ? [] : indexKeys(collection, fields, id, after);
  // Both lists come from the same fields in the same order: the i-th keys belong to the same index.
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

export function planQuery(fields: readonly string[], query: Pick<DocQuery, 'where' | 'since' | 'orderBy'>): QueryPlan {
  const plan = choosePlan(fields, query);
  return { ...plan, covered: covers(plan.index, query) };
}

function choosePlan(fields: readonly string[], query: Pick<DocQuery, 'where' | 'since' | 'orderBy'>): Omit<QueryPlan, 'covered'> {
  const where = query.where ?? {};
  const equal = Object.keys(where).filter((field) => fields.includes(field));
  const order = query.orderBy;
  const reverse = order?.direction === 'desc';
  const sinceOn = (field: string) => (query.since?.field === field ? { from: query.since.value } : {});
  if (order !== undefined && fields.includes(order.field)) {
    const leading = equal.find((field) => field !== order.field);
    if (leading !== undefined)
      return {
        ordered: true,
        reverse,
        index: { name: `${leading}>${order.field}`, prefix: [keyPart(where[leading])], ...sinceOn(order.field) },
      };
    if (equal.includes(order.field)) return { ordered: true, reverse, index: { name: order.field, prefix: [keyPart(where[order.field])] } };
    return { ordered: true, reverse, index: { name: order.field, prefix: [], ...sinceOn(order.field) } };
  }
  if (equal.length > 0) {
    const field = present(equal[0], 'equal[0]');
    const since = query.since && fields.includes(query.since.field) && query.since.field !== field ? query.since.field : undefined;
    if (since !== undefined)
      return {
        ordered: false,
        reverse: false,
        index: { name: `${field}>${since}`, prefix: [keyPart(where[field])], from: present(query.since, 'query.since').value },
      };
    return { ordered: false, reverse: false, index: { name: field, prefix: [keyPart(where[field])] } };
  }
  if (query.since && fields.includes(query.since.field))
    return { ordered: false, reverse: false, index: { name: query.since.field, prefix: [], from: query.since.value } };
  return { ordered: false, reverse: false, index: null };
}
