import { z } from 'zod';
import { dataVersionsSchema } from '../../domain/coverage/data-versions.body.js';

/**
 * `coverage.data_versions` of the verdicts that read transfers (full check, transfer check): the
 * screen's data versions (domain/coverage/data-versions.body.ts, still recorded in those words) with the
 * transfer data read, a row per data set.
 */

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
