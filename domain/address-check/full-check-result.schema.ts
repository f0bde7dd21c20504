import { z } from 'zod';
import { sourceVersionRowSchema, tracedDataVersionsSchema } from '../coverage/data-versions.body.js';
import { sanctionsCoverageSchema } from '../coverage/sanctions-coverage.body.js';
import { coverageSchema, verdictSchema } from '../intel/screen-verdict.schema.js';
import { notAppliedReasonSchema } from './tier-outcome.schema.js';
import { DECISIONS, HIGH_RISK_LEVELS, RISK_LEVELS } from '../shared/verdict-vocabulary.js';

/**
 * The 200 body of GET /v2/check-address/{check_id}/result, without `billing` (added at delivery). It is
 * computed once, when the check completes, and stored in CheckCompleted: every later poll returns it
 * unchanged. Money in responses is USD (a number with at most 6 decimals), shares are percent.
 */

const riskLevel = z.enum(RISK_LEVELS);

export const evidencePathSchema = z.object({
  hops: z.number().int().min(1),
  addresses: z.array(z.string()),
  usd: z.number().nonnegative(),
  share_pct: z.number().min(0).max(100),
  label: z.string().nullable(),
  source: z.string(),
  usd_estimated: z.boolean(),
});

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

const exposureCategorySchema = z.object({
  slug: z.string(),
  severity: z.number().int(),
  risk_level: riskLevel,
  usd: z.number().nonnegative(),
  share_pct: z.number(),
  weighted_share_pct: z.number(),
  min_hops: z.number().int(),
  entities: z.number().int(),
  paths: z.array(evidencePathSchema),
});

const remainderBodySchema = z.object({
  address: z.string(),
  /** 0: the checked address itself. */
  hops: z.number().int().min(0),
  /** Its counterparties in this direction the search did not follow. */
  counterparties: z.number().int().nonnegative(),
  /** The checked address's flow that reached them and was not traced further, in USD and percent. */
  usd: z.number().nonnegative(),
  share_pct: z.number().min(0).max(100),
  /** The address's whole flow with those counterparties, in USD. */
  remainder_usd: z.number().nonnegative(),
  /** The transfer graph keeps only the address's heaviest counterparties; the rest is one aggregated remainder. */
  super_node: z.boolean(),
});

/** Where the search stopped: at attributed services it did not follow, and at remainders it did not expand. */
export const exposureStopsBodySchema = z.object({
  services: z.array(
    z.object({
      address: z.string(),
      slug: z.string(),
      label: z.string().nullable(),
      hops: z.number().int().min(1),
      usd: z.number().nonnegative(),
      share_pct: z.number().min(0).max(100),
    }),
  ),
  services_total: z.number().int().nonnegative(),
  remainders: z.array(remainderBodySchema),
  remainders_total: z.number().int().nonnegative(),
  heaviest_remainder: remainderBodySchema.nullable(),
});
export type ExposureStopsBody = z.infer<typeof exposureStopsBodySchema>;

export const exposureBodySchema = z.object({
  applied: z.boolean(),
  reason: notAppliedReasonSchema.nullable(),
  complete: z.boolean().nullable(),
  stopped_by: z.string().nullable(),
  weighting: z.enum(['usd', 'transfer_count']).nullable(),
  total_usd: z.number().nonnegative().nullable(),
  total_transfers: z.number().int().nonnegative().nullable(),
  unattributed_pct: z.number().nullable(),
  usd_estimated: z.boolean(),
  search: z.object({ nodes: z.number().int(), edges: z.number().int(), hops: z.number().int(), elapsed_ms: z.number() }).nullable(),
  categories: z.array(exposureCategorySchema),
  /** null when the search did not run, and in results stored before the search reported its stops (served as null). */
  stops: exposureStopsBodySchema.nullable().optional(),
});
export type ExposureBody = z.infer<typeof exposureBodySchema>;

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

export const highRiskPayloadSchema = z.object({
  check_id: z.string(),
  address: z.string(),
  network: z.string(),
  risk_level: z.enum(HIGH_RISK_LEVELS),
  risk_score: z.number().min(0).max(100),
  tier_hit: z.number().int().min(0).max(4),
  categories: z.array(z.string()),
  sanctions: sanctionsCoverageSchema.optional(),
});
export type HighRiskPayload = z.infer<typeof highRiskPayloadSchema>;
