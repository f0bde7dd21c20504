import { z } from 'zod';
import { exposureBudgetSchema } from '../exposure/exposure.schema.js';
import { chargedBillingSchema } from '../ledger/charged-billing.js';
import { fullCheckVerdictSchema } from './full-check-verdict.js';
import { raisedWebhookSchema, WEBHOOK_EVENT_RAISED } from './raised-webhook.js';
import { tierOutcomeSchema } from './tier-outcome.schema.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `check-{checkId}`: one address full check, from request to result. The `check-` family is
 * shared by the asynchronous checks (transfer checks and inspects add their own event types); the
 * address check's decider reads only the types below.
 */
export const checkStreams = streamFamily('check');
export const checkStream = checkStreams.stream;
export const CHECK_STREAM_PREFIX = checkStreams.prefix;

const at = z.string();
const tier = z.number().int().min(0).max(4);

/** Who asked: a V2 user (charged on the first 200) or an x402 payment (paid before the check). */
export const checkOwnerSchema = z.object({
  channel: z.enum(['v2', 'x402']),
  /** The V2 user id, or the x402 payment id. */
  ownerId: z.string(),
  keyId: z.string().nullable(),
});
export type CheckOwner = z.infer<typeof checkOwnerSchema>;

export const addressCheckEventSchemas = {
  AddressCheckRequested: z.object({
    checkId: z.string(),
    owner: checkOwnerSchema,
    address: z.string(),
    network: z.enum(['BSC', 'ETH', 'TRON']),
    budget: exposureBudgetSchema,
    requestedAt: at,
  }),
  TierCompleted: z.object({ outcome: tierOutcomeSchema, at }),
  /** A tier failed (RPC, parse, pipeline error); it is retried until MAX_TIER_ATTEMPTS. */
  TierAttemptFailed: z.object({ tier, attempt: z.number().int().min(1), error: z.string(), at }),
  /**
   * The verdict, a domain fact (full-check-verdict.ts); the presenters shape every body from it. Schema
   * version 2: version 1 stored the response body, read as this by check-completed.upcast.ts.
   */
  CheckCompleted: z.object({ verdict: fullCheckVerdictSchema, at }),
  CheckFailed: z.object({ tier: tier.nullable(), error: z.string(), at }),
  /** The reaper's verdict on a check still running after the wall-clock cap: `failed_timeout`. */
  CheckTimedOut: z.object({ runningMs: z.number().int().nonnegative(), at }),
  /**
   * The first 200 of the result: what it was charged, returned again (as a replay) on later polls. Schema
   * version 2: version 1 stored the response's billing object, read as this by charged-billing.upcast.ts.
   */
  CheckResultDelivered: z.object({ billing: chargedBillingSchema.nullable(), at }),
  /** service.check.high_risk for a V2 owner, appended with CheckCompleted when the verdict is high or severe. */
  [WEBHOOK_EVENT_RAISED]: raisedWebhookSchema,
} as const;

type Schemas = typeof addressCheckEventSchemas;
export type AddressCheckEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
export const ADDRESS_CHECK_EVENT_TYPES = Object.keys(addressCheckEventSchemas) as (keyof Schemas)[];
