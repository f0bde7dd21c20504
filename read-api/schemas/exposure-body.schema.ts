import { z } from 'zod';
import { notAppliedReasonSchema } from '../../domain/address-check/tier-outcome.schema.js';
import { RISK_LEVELS } from '../../domain/shared/verdict-vocabulary.js';

/**
 * An exposure search in the bodies' words (USD, percent, snake case): each direction of the full check's
 * `exposure`, an explore report's `incoming` and `outgoing`, and the paths of the transfer check's
 * evidence. read-api/presenters/exposure.presenter.ts shapes them from what the search found.
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
