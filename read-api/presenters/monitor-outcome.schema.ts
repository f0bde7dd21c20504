import { z } from 'zod';
import { chargedBillingSchema } from '../../domain/ledger/charged-billing.js';
import { monitorStateSchema } from '../../domain/monitors/monitor-state.schema.js';
import { ERROR_CODES } from '../../domain/shared/errors.js';
import { validationDetailSchema } from '../validation.js';

/**
 * The outcomes of POST /v2/monitors and POST /v2/monitors/bulk as schemas: an Idempotency-Key stores them
 * and its replay parses them back with these (monitor.presenter.ts takes its types from here).
 */

/** One watch asked for: created now (charged) or already watched (not charged). */
export const monitorWatchedSchema = z.object({
  kind: z.literal('watched'),
  created: z.boolean(),
  state: monitorStateSchema,
  billing: chargedBillingSchema,
});

/** A command's refusal of one bulk entry (domain/shared/errors.ts, Failure). */
const failureSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** One entry of a bulk request: watched, refused by a command (its failure), or invalid (its locations). */
export const bulkEntryOutcomeSchema = z.discriminatedUnion('kind', [
  monitorWatchedSchema,
  z.object({ kind: z.literal('refused'), failure: failureSchema }),
  z.object({ kind: z.literal('invalid'), detail: z.array(validationDetailSchema) }),
]);

export const bulkWatchedSchema = z.object({ kind: z.literal('bulk'), entries: z.array(bulkEntryOutcomeSchema) });

export type MonitorWatched = z.infer<typeof monitorWatchedSchema>;
export type BulkEntryOutcome = z.infer<typeof bulkEntryOutcomeSchema>;
export type BulkWatched = z.infer<typeof bulkWatchedSchema>;
