import { z } from 'zod';
import type { IndexCoverage } from '../ports/chain-data.port.js';
import type { DatasetVersion } from '../intel/intel.types.js';

/**
 * Which data a verdict was computed from: every intelligence source whose claims contributed (about the
 * address itself, or about an entity its funds reached at any hop), each at its version, and the
 * transfer data the exposure search read. Domain facts, recorded in the tier outcomes and in the transfer
 * check's completion; shaped for the wire in read-api/presenters/data-versions.presenter.ts.
 */

export const sourceVersionSchema = z.object({
  /** The public slug (licensed feeds by their alias), as the verdict's evidence names it. */
  source: z.string(),
  version: z.string(),
  contentHash: z.string(),
  importedAt: z.string(),
});
export type SourceVersion = z.infer<typeof sourceVersionSchema>;

export const transferDataVersionSchema = z.object({
  name: z.string(),
  kind: z.enum(['sample', 'ingested_blocks', 'account_history_api', 'synthetic']).nullable(),
  transfers: z.number().int().nonnegative(),
  version: z.string().nullable(),
  asOf: z.string().nullable(),
  upToBlock: z.number().int().nullable(),
  cap: z.string().nullable(),
});
export type TransferDataVersion = z.infer<typeof transferDataVersionSchema>;

export const publicSlugOf = (dataset: DatasetVersion): string => dataset.alias ?? dataset.source;

export function sourceVersion(dataset: DatasetVersion): SourceVersion {
  return { source: publicSlugOf(dataset), version: dataset.version, contentHash: dataset.contentHash, importedAt: dataset.importedAt };
}

/** The versions of the sources named by their public slugs, from the data sets the index holds (unknown slugs are left out). */
export function versionsOf(slugs: Iterable<string>, datasets: readonly DatasetVersion[]): SourceVersion[] {
  const wanted = new Set(slugs);
  return datasets
    .filter((dataset) => wanted.has(publicSlugOf(dataset)))
    .map(sourceVersion)
    .sort((a, b) => (a.source < b.source ? -1 : 1));
}

/** The union of several lists of source versions, one row per source (the first seen wins). */
export function mergeVersions(...lists: readonly (readonly SourceVersion[])[]): SourceVersion[] {
  const bySource = new Map<string, SourceVersion>();
  for (const version of lists.flat()) if (!bySource.has(version.source)) bySource.set(version.source, version);
  return [...bySource.values()].sort((a, b) => (a.source < b.source ? -1 : 1));
}

/** The transfer data sets of a network, as a verdict names them. */
export function transferDataVersions(coverage: IndexCoverage['datasets']): TransferDataVersion[] {
  return coverage.map((d) => ({
    name: d.name,
    kind: d.kind ?? null,
    transfers: d.transfers,
    version: d.version ?? null,
    asOf: d.asOf ?? d.to,
    upToBlock: d.upToBlock ?? null,
    cap: d.cap ?? null,
  }));
}
