import { z } from 'zod';
import type { SourceVersion, TransferDataVersion } from './data-versions.js';

/**
 * `coverage.data_versions` in the spec's words (our addition to its coverage object): the taxonomy, the
 * whole data state's snapshot id and the sources behind the verdict. Still in domain/ because events
 * still record it in these words: monitor verdicts, the upcasters' readers of verdicts recorded before
 * (tier 1's screen: ../intel/screen-verdict.v1.ts; the full check's body) and the transfer check's stored result (domain/kyt/transfer-result.ts, until it is a domain fact, which also
 * shapes its transfer data rows here). Those rows' schema, which only bodies are held to, is
 * read-api/schemas/data-versions.schema.ts.
 */

export const sourceVersionRowSchema = z.strictObject({
  source: z.string(),
  version: z.string(),
  content_hash: z.string(),
  imported_at: z.string().meta({ description: 'When this version was imported: the data is as of then' }),
});

export const dataVersionsSchema = z.strictObject({
  taxonomy: z.string(),
  snapshot: z.string().nullable(),
  sources: z.array(sourceVersionRowSchema),
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
