import { z } from 'zod';
import type { SourceVersion, TransferDataVersion } from './data-versions.js';

/**
 * `coverage.data_versions` as the bodies carry it (our addition to the spec's coverage object): the
 * taxonomy, the whole data state's snapshot id, the sources behind the verdict and, for the verdicts that
 * read transfers (full check, transfer check), the transfer data. Built here beside the verdict bodies
 * that are still built in domain/ (issue 29 moves body shaping to read-api/presenters).
 */

export const sourceVersionRowSchema = z.strictObject({
  source: z.string(),
  version: z.string(),
  content_hash: z.string(),
  imported_at: z.string().meta({ description: 'When this version was imported: the data is as of then' }),
});

export const transferDataRowSchema = z.strictObject({
  name: z.string(),
  kind: z.enum(['sample', 'ingested_blocks', 'account_history_api', 'synthetic']).nullable().meta({
    description:
      'sample: a fixed file; ingested_blocks: read from a chain up to up_to_block; account_history_api: fetched on demand, capped (cap)',
  }),
  transfers: z.number().int().min(0),
  version: z.string().nullable().meta({ description: "A sample's content hash, the ingested block range, or the API's host" }),
  as_of: z.string().nullable().meta({ description: 'Up to when the data is known (last transfer held; for an API, when it was asked)' }),
  up_to_block: z.number().int().nullable(),
  cap: z.string().nullable().meta({ description: "How much of an address's history one answer of the API holds" }),
});

export const dataVersionsSchema = z.strictObject({
  taxonomy: z.string(),
  snapshot: z.string().nullable(),
  sources: z.array(sourceVersionRowSchema),
});

/** The full check's and the transfer check's: every source at any tier or hop, and the transfer data read. */
export const tracedDataVersionsSchema = dataVersionsSchema.extend({
  transfer_data: z.array(transferDataRowSchema),
});

export const sourceVersionRow = (v: SourceVersion) => ({
  source: v.source,
  version: v.version,
  content_hash: v.contentHash,
  imported_at: v.importedAt,
});

export const transferDataRow = (t: TransferDataVersion) => ({
  name: t.name,
  kind: t.kind,
  transfers: t.transfers,
  version: t.version,
  as_of: t.asOf,
  up_to_block: t.upToBlock,
  cap: t.cap,
});

/** A source row as a body (or a screen's recorded verdict) carries it, back to the domain's version (importedAt kept absent when it is). */
export function sourceVersionOfRow(row: { source: string; version: string; content_hash: string; imported_at?: string }) {
  return {
    source: row.source,
    version: row.version,
    contentHash: row.content_hash,
    ...(row.imported_at === undefined ? {} : { importedAt: row.imported_at }),
  };
}
