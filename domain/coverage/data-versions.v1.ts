import type { TransferDataVersion } from './data-versions.js';

/**
 * The data-version rows as version-1 verdict events stored them (the response body's words), read by the
 * upcasters of the full check and the transfer check: the historical record, not a shape anyone builds.
 */
export type SourceRowV1 = { source: string; version: string; content_hash: string; imported_at?: string };
export type TransferDataRowV1 = {
  name: string;
  kind: TransferDataVersion['kind'];
  transfers: number;
  version: string | null;
  as_of: string | null;
  up_to_block: number | null;
  cap: string | null;
};

export const transferDataOfV1 = (row: TransferDataRowV1): TransferDataVersion => ({
  name: row.name,
  kind: row.kind,
  transfers: row.transfers,
  version: row.version,
  asOf: row.as_of,
  upToBlock: row.up_to_block,
  cap: row.cap,
});

/** A source row as a version-1 verdict stored it, back to the domain's version (importedAt absent when it was). */
export const sourceVersionOfRow = (row: SourceRowV1) => ({
  source: row.source,
  version: row.version,
  contentHash: row.content_hash,
  ...(row.imported_at === undefined ? {} : { importedAt: row.imported_at }),
});
