import type { SourceVersion, TransferDataVersion } from '../../domain/coverage/data-versions.js';

/** A verdict's source version in the body's words (read-api/schemas/data-versions.schema.ts). */
export const sourceVersionRow = (v: SourceVersion) => ({
  source: v.source,
  version: v.version,
  content_hash: v.contentHash,
  imported_at: v.importedAt,
});

/** A transfer data set read by the verdict, in the body's words. */
export const transferDataRow = (t: TransferDataVersion) => ({
  name: t.name,
  kind: t.kind,
  transfers: t.transfers,
  version: t.version,
  as_of: t.asOf,
  up_to_block: t.upToBlock,
  cap: t.cap,
});
