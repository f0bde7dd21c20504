import { createHash } from 'node:crypto';
import type { Claim } from '../../domain/intel/intel.types.js';
import type { CatalogEntry } from './source-catalog.js';

interface Supersedable {
  readonly source: string;
  readonly contentHash: string;
  readonly claims: readonly Claim[];
  readonly stats: { readonly superseded: number };
}

/**
 * Applies `supersededBy` (source-catalog.ts): a superseded source keeps its sanction claims only for
 * addresses the superseding source also lists, when that source was loaded. Its content hash then
 * covers the superseding source's too, so a change there re-imports it.
 */
export function supersede<Loaded extends Supersedable>(loaded: readonly Loaded[], catalog: readonly CatalogEntry[]): Loaded[] {
  const bySlug = new Map(loaded.map((source) => [source.source, source]));
  return loaded.map((source) => {
    const by = catalog.find((entry) => entry.descriptor.slug === source.source)?.supersededBy;
    const authority = by === undefined ? undefined : bySlug.get(by);
    if (!authority) return source;
    const listed = new Set(authority.claims.filter((c) => c.kind === 'sanction').map((c) => c.address));
    const claims = source.claims.filter((c) => c.kind !== 'sanction' || listed.has(c.address));
    const contentHash = `sha256:${createHash('sha256').update(`${source.contentHash}\0${authority.contentHash}`).digest('hex')}`;
    return { ...source, claims, contentHash, stats: { ...source.stats, superseded: source.claims.length - claims.length } };
  });
}
