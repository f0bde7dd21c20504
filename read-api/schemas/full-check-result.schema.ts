import { z } from 'zod';
import { notAppliedReasonSchema } from '../../domain/address-check/tier-outcome.schema.js';
import { sourceVersionRowSchema, tracedDataVersionsSchema } from './data-versions.schema.js';
import { sanctionsCoverageSchema } from '../../domain/webhooks/sanctions-coverage.words.js';
import { evidencePathSchema, exposureBodySchema } from './exposure-body.schema.js';
import { coverageSchema, verdictSchema } from './screen-verdict.body.js';
import { DECISIONS, RISK_LEVELS } from '../../domain/shared/verdict-vocabulary.js';

/**
 * The 200 body of GET /v2/check-address/{check_id}/result, without `billing` and `receipt` (added at
 * delivery): the full check's domain verdict (CheckCompleted) as full-check.presenter.ts shapes it, the
 * same on every poll. Money in responses is USD (a number with at most 6 decimals), shares are percent.
 */

const riskLevel = z.enum(RISK_LEVELS);

export const evidenceSchema = z.object({
  slug: z.string(),
  severity: z.number().int().nullable(),
  risk_level: riskLevel.nullable(),
  /** ownership: the address itself; direct: a counterparty; indirect: further away. */
  relation: z.enum(['ownership', 'direct', 'indirect']),
  direction: z.enum(['self', 'incoming', 'outgoing']),
  tier: z.number().int().min(0).max(4),
  usd: z.number().nonnegative().nullable(),
  share_pct: z.number().min(0).max(100).nullable(),
  weighted_share_pct: z.number().min(0).max(100).nullable(),
  hops: z.number().int().min(0),
  sources: z.array(z.string()),
  paths: z.array(evidencePathSchema),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const tierRowSchema = z.object({
  tier: z.number().int().min(0).max(4),
  name: z.string(),
  applied: z.boolean(),
  reason: notAppliedReasonSchema.nullable(),
  risk_level: riskLevel,
});

export const fullVerdictSchema = verdictSchema.extend({
  tier3_applied: z.boolean(),
  tier3_reason: notAppliedReasonSchema.nullable(),
  tier4_applied: z.boolean(),
  tier4_reason: notAppliedReasonSchema.nullable(),
  /** The first tier whose finding alone reached the final risk level (null when nothing was found). */
  tier_hit: z.number().int().min(0).max(4).nullable(),
  /** The level of the address itself (tiers 0 and 1), before exposure. */
  ownership_risk_level: riskLevel,
  /** The level exposure alone reaches (tiers 2–4). */
  exposure_risk_level: riskLevel,
});

export const fullCoverageSchema = coverageSchema.extend({
  /** Absent only in results of checks completed before verdicts stated it. */
  sanctions: sanctionsCoverageSchema.optional(),
  /** Every source behind the verdict at any tier or hop, and the transfer data read (older results: the address's own sources only). */
  data_versions: tracedDataVersionsSchema.extend({
    sources: z.array(sourceVersionRowSchema.extend({ imported_at: z.string().optional() })),
    transfer_data: tracedDataVersionsSchema.shape.transfer_data.optional(),
  }),
  graph_analysed: z.boolean(),
  transfer_history: z.boolean(),
  transfer_data: z.array(
    z.object({
      name: z.string(),
      transfers: z.number().int(),
      from: z.string().nullable(),
      to: z.string().nullable(),
      caveat: z.string().nullable(),
    }),
  ),
});

export const fullCheckResultSchema = z.object({
  check_id: z.string(),
  schema_version: z.number().int(),
  status: z.literal('completed'),
  address: z.string(),
  network: z.string(),
  provider: z.string(),
  decision: z.enum(DECISIONS),
  decision_reason: z.string(),
  verdict: fullVerdictSchema,
  coverage: fullCoverageSchema,
  evidence: z.array(evidenceSchema),
  exposure: z.object({
    direct_incoming: exposureBodySchema,
    direct_outgoing: exposureBodySchema,
    source_of_funds: exposureBodySchema,
    destination_of_funds: exposureBodySchema,
  }),
  activity: z
    .object({
      incoming_transfers: z.number().int(),
      outgoing_transfers: z.number().int(),
      incoming_usd: z.number(),
      outgoing_usd: z.number(),
      unpriced_transfers: z.number().int(),
      first_seen_at: z.string(),
      last_seen_at: z.string(),
    })
    .nullable(),
  tiers: z.array(tierRowSchema),
  requested_at: z.string(),
  completed_at: z.string(),
});
export type FullCheckResult = z.infer<typeof fullCheckResultSchema>;
