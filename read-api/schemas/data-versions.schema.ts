import { z } from 'zod';

/**
 * `coverage.data_versions` of every verdict body (our addition to the spec's coverage): the taxonomy, the
 * whole data state's snapshot id and the sources behind the verdict; the verdicts that read transfers
 * (full check, transfer check) add the transfer data read, a row per data set.
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

/** The full check's and the transfer check's: every source at any tier or hop, and the transfer data read. */
export const tracedDataVersionsSchema = dataVersionsSchema.extend({
  transfer_data: z.array(transferDataRowSchema),
});
