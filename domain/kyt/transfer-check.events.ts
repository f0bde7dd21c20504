import { z } from 'zod';
import { sanctionsCoverageFactSchema } from '../coverage/sanctions-coverage.js';
import { TRANSFER_CHAINS } from '../shared/network.js';
import { WEBHOOK_EVENT_RAISED, webhookEventRaisedSchema } from '../webhooks/webhook-raised.js';
import { ALERT_LEVELS } from './alert-level.js';
import { RULE_TYPES } from './policy.types.js';
import { CATEGORY_LEVELS } from '../shared/verdict-vocabulary.js';
import { changeReasonSchema } from '../intel/change-reason.js';
import { transferAlertSchema } from '../webhooks/webhook-event-types.js';
import { streamFamily } from '../shared/streams.js';
import { transferVerdictSchema } from './transfer-verdict.js';

/** Stream `transfer-{checkId}`: one transfer check (KYT), from request to result. */
export const transferCheckStreams = streamFamily('transfer');
export const TRANSFER_STREAM_FAMILY = transferCheckStreams.family;
export const transferCheckStream = transferCheckStreams.stream;

/** How long a check may run before it is failed_timeout (the spec's stuck-check reaper). */
export const TRANSFER_CHECK_TIMEOUT_MS = 15 * 60 * 1000;

const alertLevel = z.enum(ALERT_LEVELS);

export const requesterSchema = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('v2'), userId: z.string(), keyId: z.string(), subgroupId: z.string() }),
  z.object({ channel: z.literal('x402'), payer: z.string().nullable() }),
]);
export type Requester = z.infer<typeof requesterSchema>;

export const FAILURE_CODES = ['tx_not_found', 'tx_decode_failed', 'backend_unavailable', 'internal_error'] as const;
export type TransferFailureCode = (typeof FAILURE_CODES)[number];

/** What the policy was applied to (policy-engine.ts PolicyFact): a backtest applies another policy to it, without the chain. */
export const policyFactSchema = z.object({
  ruleType: z.enum(RULE_TYPES),
  slug: z.string(),
  displayName: z.string(),
  level: z.enum(CATEGORY_LEVELS),
  share: z.number(),
  usdMicros: z.number(),
  entityName: z.string().nullable(),
  anchor: z.object({ address: z.string(), label: z.string().nullable() }),
  senders: z.array(z.string()).readonly().default([]),
});

/** The policy version a check applied: `standard` and its version, or one of the subgroup's policies. */
export const appliedPolicySchema = z.object({ id: z.string(), version: z.string() });
export type AppliedPolicy = z.infer<typeof appliedPolicySchema>;

export const transferCheckEventSchemas = {
  TransferCheckRequested: z.object({
    checkId: z.string(),
    chain: z.enum(TRANSFER_CHAINS),
    txHash: z.string(),
    requester: requesterSchema,
    /** Recorded by older versions (a subgroup floor applied to every subscription); read, never used. */
    alertMinLevel: alertLevel.optional(),
    at: z.string(),
  }),
  TransferCheckCompleted: z.object({
    checkId: z.string(),
    /** The domain verdict (transfer-verdict.ts); version 1 of this event stored the response body (transfer-check-completed.upcast.ts). */
    verdict: transferVerdictSchema,
    worstLevel: alertLevel.nullable(),
    alertCount: z.number().int().nonnegative(),
    /** The sanctions lists the senders were checked against (absent in checks completed before it was recorded). */
    sanctions: sanctionsCoverageFactSchema.optional(),
    /** The policy version applied (absent in checks completed before policies were versioned: the standard one). */
    policy: appliedPolicySchema.optional(),
    /** The facts the policy was applied to (absent in checks completed before they were recorded). */
    facts: z.array(policyFactSchema).optional(),
    at: z.string(),
  }),
  /**
   * Retroactive exposure: an intelligence change touched the check's senders (or the addresses on their
   * exposure paths) and the subgroup's active policy, applied again with what is known now, raises alerts
   * the check had not raised (or raises one at a higher level). Only those alerts are recorded; their
   * cases are numbered from `firstAlertIndex`, after the check's own alerts and earlier retroactive ones.
   */
  TransferCheckReevaluated: z.object({
    checkId: z.string(),
    /** The intelligence change's key (idempotency: a change re-evaluates a check once). */
    changeKey: z.string(),
    reasons: z.array(changeReasonSchema).min(1),
    policy: appliedPolicySchema,
    facts: z.array(policyFactSchema),
    alerts: z.array(transferAlertSchema).min(1),
    firstAlertIndex: z.number().int().nonnegative(),
    at: z.string(),
  }),
  TransferCheckFailed: z.object({ checkId: z.string(), code: z.enum(FAILURE_CODES), message: z.string(), at: z.string() }),
  TransferCheckTimedOut: z.object({ checkId: z.string(), at: z.string() }),
  /** `tx.policy.alert.triggered` for the webhook fan-out (domain/webhooks/webhook-raised.ts). */
  [WEBHOOK_EVENT_RAISED]: webhookEventRaisedSchema,
} as const;

type Schemas = typeof transferCheckEventSchemas;
export type TransferCheckEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
