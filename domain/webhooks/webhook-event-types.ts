import { z } from 'zod';
import { sanctionsCoverageSchema } from './sanctions-coverage.words.js';
import { changeReasonWordsSchema } from './change-reason-words.js';
import { monitorVerdictWordsSchema } from '../monitors/risk-changed-payload.js';
import { ALERT_LEVELS, HIGH_RISK_LEVELS, type AlertLevel } from '../shared/verdict-vocabulary.js';

/**
 * The webhook event types of the spec and the shape of each payload. Ids are checked as non-empty
 * strings rather than UUIDs: a raised event that fails its schema is a bug of its emitter, and these
 * schemas are there to catch that bug in the emitter's own tests (see webhook-raised.ts).
 */
export const WEBHOOK_EVENT_TYPES = [
  'tx.policy.alert.triggered',
  'service.bfs.completed',
  'service.bfs.failed',
  'service.check.high_risk',
  'service.address.risk_changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const TRANSFER_ALERT_EVENT: WebhookEventType = 'tx.policy.alert.triggered';

/** Alert levels of the KYT policy, lowest first (the verdict vocabulary's). */
export { ALERT_LEVELS, type AlertLevel };
export const DEFAULT_ALERT_MIN_LEVEL: AlertLevel = 'Medium';

export const levelRank = (level: AlertLevel): number => ALERT_LEVELS.indexOf(level);

const id = z.string().min(1);
const synthetic = { synthetic: z.literal(true).optional() };

export const transferAlertSchema = z.object({
  category: z.string(),
  riskLevel: z.enum(ALERT_LEVELS),
  ruleType: z.string(),
  actualShare: z.number(),
  thresholdShare: z.number(),
  thresholdValue: z.number(),
  entityName: z.string().nullable(),
  entityAddress: z.string().nullable(),
  direction: z.literal('incoming'),
  entityScore: z.number(),
});
export type TransferAlert = z.infer<typeof transferAlertSchema>;

export const webhookPayloadSchemas = {
  'tx.policy.alert.triggered': z.object({
    check_id: id,
    tx_hash: z.string(),
    chain: z.enum(['ETH', 'BSC', 'POLYGON', 'BASE', 'ARBITRUM', 'TRON']),
    subgroup_id: id,
    worst_level: z.enum(ALERT_LEVELS),
    alerts: z.array(transferAlertSchema).min(1),
    /** Our addition: the sanctions lists the senders were checked against, and those not checked. */
    sanctions: sanctionsCoverageSchema.optional(),
    /** Our addition: alerts a past check gained when an intelligence change touched it (retroactive exposure). */
    retroactive: z.literal(true).optional(),
    /** With `retroactive`: the change behind it (the source, what changed, its version and date). */
    reasons: z.array(changeReasonWordsSchema).optional(),
    ...synthetic,
  }),
  'service.bfs.completed': z.object({
    job_id: id,
    address: z.string(),
    network: z.string(),
    report_id: id,
    categories: z.array(z.object({ slug: z.string(), severity: z.number(), contribution: z.number() })),
    complete: z.boolean(),
    ...synthetic,
  }),
  'service.bfs.failed': z.object({ job_id: id, address: z.string(), network: z.string(), error: z.string(), ...synthetic }),
  'service.check.high_risk': z.object({
    check_id: id,
    address: z.string(),
    network: z.string(),
    risk_level: z.enum(HIGH_RISK_LEVELS),
    risk_score: z.number().min(0).max(100),
    tier_hit: z.union([z.number(), z.string()]),
    categories: z.array(z.string()),
    /** Our addition: the sanctions lists the check was checked against, and those not checked. */
    sanctions: sanctionsCoverageSchema.optional(),
    ...synthetic,
  }),
  /** A monitored address's verdict changed after an intelligence change (docs/api.md, "Monitors"). */
  'service.address.risk_changed': z.object({
    monitor_id: id,
    address: z.string(),
    network: z.string(),
    reference: z.string().nullable(),
    previous: monitorVerdictWordsSchema,
    current: monitorVerdictWordsSchema,
    reasons: z.array(changeReasonWordsSchema).min(1),
    /** Our addition: the sanctions lists the new verdict was checked against, and those not checked. */
    sanctions: sanctionsCoverageSchema.optional(),
    /** Our addition: the change's receipt, a compact JWS (docs/api.md, "Verifying a verdict"). */
    receipt: z.string().optional(),
    ...synthetic,
  }),
} as const satisfies Record<WebhookEventType, z.ZodType>;

export type WebhookPayload<T extends WebhookEventType = WebhookEventType> = z.infer<(typeof webhookPayloadSchemas)[T]>;

/** Validates (and strips unknown fields from) a payload of the given type; throws a ZodError. */
export function parseWebhookPayload(eventType: WebhookEventType, payload: unknown): Record<string, unknown> {
  return webhookPayloadSchemas[eventType].parse(payload) as Record<string, unknown>;
}
