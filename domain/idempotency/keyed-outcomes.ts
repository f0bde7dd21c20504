import { z } from 'zod';
import { screenVerdictSchema } from '../intel/screen-verdict.schema.js';
import { isScreenVerdictV1, screenVerdictOfV1, type ScreenVerdictV1 } from '../intel/screen-verdict.v1.js';
import { transferVerdictSchema } from '../kyt/transfer-verdict.js';
import { chargedBillingSchema } from '../ledger/charged-billing.js';
import { SCREEN_NETWORKS } from '../shared/network.js';

/**
 * The outcomes the V2 routes store under an Idempotency-Key (IdempotentOutcomeStored) and read back on a
 * replay, as schemas: commands/ take their outcome types from here (z.infer), so what a call returns and
 * what its replay parses cannot drift. Objects are not strict: a field an older outcome carried and this
 * type no longer has is dropped, one it lacks refuses the replay (store_corrupt).
 */

/** The light screen's verdict about one address (commands/screen-address.ts): who was screened, by which engine, and what it found. */
export const screenedAddressSchema = z.object({
  subject: z.object({ address: z.string(), network: z.enum(SCREEN_NETWORKS) }),
  /** The engine that computed it (ours: `service`). */
  engine: z.string(),
  screen: screenVerdictSchema,
});
export type ScreenedAddress = z.infer<typeof screenedAddressSchema>;

/** The screen's 200 body as outcomes kept it before the verdict was a domain fact (`provider` is the engine). */
type ScreenBodyV1 = ScreenVerdictV1 & { schema_version: number; address: string; network: string; provider: string };

/** A screen outcome kept before: its body read back as the domain verdict it states, exactly (../intel/screen-verdict.v1.ts). */
function screenedAddressOfV1(recorded: unknown): unknown {
  if (!isScreenVerdictV1(recorded) || !('schema_version' in recorded)) return recorded;
  const body = recorded as ScreenBodyV1;
  return { subject: { address: body.address, network: body.network }, engine: body.provider, screen: screenVerdictOfV1(body) };
}

/** A light screen that answered: the verdict, its signed receipt and what it was charged. */
export const screenOutcomeSchema = z.object({
  kind: z.literal('completed'),
  /** Outcomes kept before the verdict was a domain fact hold its body: read as the verdict. */
  verdict: z.preprocess(screenedAddressOfV1, screenedAddressSchema),
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

export type ScreenOutcome = z.infer<typeof screenOutcomeSchema>;
export type CheckAccepted = z.infer<typeof checkAcceptedSchema>;
export type ExploreAccepted = z.infer<typeof exploreAcceptedSchema>;
export type TransferDelivery = z.infer<typeof transferDeliverySchema>;
