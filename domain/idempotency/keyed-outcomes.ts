import { z } from 'zod';
import { screenVerdictSchema } from '../intel/screen-verdict.schema.js';
import { transferVerdictSchema } from '../kyt/transfer-verdict.js';
import { chargedBillingSchema } from '../ledger/charged-billing.js';
import { SCREEN_NETWORKS } from '../shared/network.js';

/**
 * The outcomes the V2 routes store under an Idempotency-Key (IdempotentOutcomeStored) and read back on a
 * replay, as schemas: commands/ take their outcome types from here (z.infer), so what a call returns and
 * what its replay parses cannot drift. Objects are not strict: a field an older outcome carried and this
 * type no longer has is dropped, one it lacks refuses the replay (store_corrupt).
 */

/** The light screen's verdict body (commands/screen-address.ts, screenBody). */
export const screenVerdictBodySchema = z.object({
  schema_version: z.number().int(),
  address: z.string(),
  network: z.enum(SCREEN_NETWORKS),
  provider: z.string(),
  ...screenVerdictSchema.shape,
});

/** A light screen that answered: the verdict, its signed receipt and what it was charged. */
export const screenOutcomeSchema = z.object({
  kind: z.literal('completed'),
  verdict: screenVerdictBodySchema,
  receipt: z.string(),
  /** The call's id, the receipt's verdict id (absent from outcomes an Idempotency-Key stored before it was kept). */
  verdictId: z.string().optional(),
  billing: chargedBillingSchema,
});

/** A full check recorded and waiting for the pipeline. */
export const checkAcceptedSchema = z.object({ kind: z.literal('accepted'), checkId: z.string() });

/** An explore job recorded and waiting for the pipeline. */
export const exploreAcceptedSchema = z.object({ kind: z.literal('accepted'), jobId: z.string() });

/** What a delivery of a transfer check finds: still running, or the result with what it was charged. */
export const transferDeliverySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('running'), checkId: z.string() }),
  z.object({ kind: z.literal('completed'), verdict: transferVerdictSchema, receipt: z.string(), billing: chargedBillingSchema }),
]);

export type ScreenVerdictBody = z.infer<typeof screenVerdictBodySchema>;
export type ScreenOutcome = z.infer<typeof screenOutcomeSchema>;
export type CheckAccepted = z.infer<typeof checkAcceptedSchema>;
export type ExploreAccepted = z.infer<typeof exploreAcceptedSchema>;
export type TransferDelivery = z.infer<typeof transferDeliverySchema>;
