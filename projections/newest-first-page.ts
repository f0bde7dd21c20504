import type { Collection, Doc } from '../domain/ports/read-store.port.js';

/**
 * One page of documents newest first by an ISO time field, between `since` (included) and `until`
 * (excluded). The read store bounds a range from below only; newest first, the documents at or after
 * `until` come first, so they are counted (with `until` as the lower bound) and skipped.
 */
export async function newestFirstPage<D extends Doc>(
  docs: Collection<D>,
  query: {
    readonly where: Readonly<Record<string, string | number | boolean | null>>;
    readonly field: string;
    readonly since?: string;
    readonly until?: string;
  },
  paging: { readonly page: number; readonly pageSize: number },
): Promise<{ rows: readonly D[]; total: number }> {
  const { where, field, since, until } = query;
  const bounded = { where, ...(since ? { since: { field, value: since } } : {}) };
  const skip = (paging.page - 1) * paging.pageSize;
  const newestFirst = { ...bounded, orderBy: { field, direction: 'desc' as const }, limit: paging.pageSize };
  if (!until) {
    const [rows, total] = await Promise.all([docs.find({ ...newestFirst, skip }), docs.count(bounded)]);
    return { rows, total };
  }
  const [fromSince, fromUntil] = await Promise.all([docs.count(bounded), docs.count({ where, since: { field, value: until } })]);
  const total = Math.max(0, fromSince - fromUntil);
  if (skip >= total) return { rows: [], total };
  const rows = await docs.find({ ...newestFirst, skip: fromUntil + skip, limit: Math.min(paging.pageSize, total - skip) });
  return { rows, total };
}
