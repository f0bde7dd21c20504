import { z } from 'zod';
import { sourceVersionSchema } from '../coverage/data-versions.js';
import { sanctionsCoverageFactSchema } from '../coverage/sanctions-coverage.js';
import { RISK_LEVELS } from '../shared/verdict-vocabulary.js';
import { CLAIM_DATINGS, SANCTIONS_JURISDICTIONS } from './intel.types.js';

/**
 * The light screen's verdict as a domain fact (camel case): what tier 1 of a full check records, what
 * the screen keeps under an Idempotency-Key and what the inspect's own engine answers. The response
 * body's `coverage` and `verdict` are read-api/presenters/screen-verdict.body.ts's; a verdict recorded in
 * the body's words before this shape existed is read back exactly by screen-verdict.v1.ts. `version` is
 * this shape's: a change bumps it, and the events holding it get an upcaster.
 */
export const SCREEN_VERDICT_VERSION = 1;

const riskLevel = z.enum(RISK_LEVELS);
const int0to100 = z.number().int().min(0).max(100);

/** The sanctions list entry that names the subject. */
export const sanctionsMatchSchema = z.object({
  list: z.enum(SANCTIONS_JURISDICTIONS),
  entity: z.string().nullable(),
  program: z.string().nullable(),
  listEntryId: z.string().nullable(),
  listDate: z.string().nullable(),
  asset: z.string().nullable(),
  source: z.string(),
});
export type SanctionsMatch = z.infer<typeof sanctionsMatchSchema>;

/** One source's claim about the address, as the consensus counted it. */
export const labelClaimSchema = z.object({
  /** The public slug (licensed feeds by their alias). */
  source: z.string(),
  sourceName: z.string(),
  label: z.string().nullable(),
  category: z.string(),
  confidence: int0to100,
  sourceUrl: z.string(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  /** What the dates rest on; null: not known (imported before this was kept). */
  datedBy: z.enum(CLAIM_DATINGS).nullable(),
});
export type LabelClaim = z.infer<typeof labelClaimSchema>;

export const entitySchema = z.object({ name: z.string(), category: z.string(), source: z.string() });

export const smartContractSchema = z.object({
  isContract: z.boolean(),
  tokenContract: z.boolean(),
  symbol: z.string().nullable(),
  decimals: z.number().int().min(0).nullable(),
  isWellKnown: z.boolean(),
  logoUrl: z.string().nullable(),
  tags: z.array(z.string()),
  primaryEntity: entitySchema.nullable(),
  complementaryEntities: z.array(entitySchema),
});
export type SmartContract = z.infer<typeof smartContractSchema>;

/** One category's consensus; confidence is a percent with two decimals, as the consensus rounded it. */
export const categoryDetailSchema = z.object({
  slug: z.string(),
  /** The level this verdict makes of the address. */
  addressLevel: riskLevel.nullable(),
  severity: z.number().int().min(0).max(10).nullable(),
  confidence: z.number().min(0).max(100).nullable(),
  sourceCount: z.number().int().min(0).nullable(),
  maxTrustWeight: int0to100.nullable(),
  sources: z.array(z.string()),
});
export type CategoryDetail = z.infer<typeof categoryDetailSchema>;

/** A source behind the verdict; `importedAt` is absent in verdicts recorded before it was kept. */
const screenSourceSchema = sourceVersionSchema.extend({ importedAt: z.string().optional() });

export const screenCoverageSchema = z.object({
  /** False: the index knows nothing of the address (unknown, not clean). */
  dataAvailable: z.boolean(),
  /** The tiers that ran (the light screen: sanctions and consensus; never a graph). */
  tiers: z.array(z.string()),
  dataVersions: z.object({ taxonomy: z.string(), snapshot: z.string().nullable(), sources: z.array(screenSourceSchema) }),
  /** The sanctions lists checked; absent only in verdicts recorded before verdicts stated it. */
  sanctions: sanctionsCoverageFactSchema.optional(),
});
export type ScreenCoverage = z.infer<typeof screenCoverageSchema>;

export const screenFindingsSchema = z.object({
  /** The level this verdict makes of the address. */
  addressLevel: riskLevel.nullable(),
  riskScore: int0to100.nullable(),
  /** The categories that carry a risk (not `none`), in consensus order. */
  riskCategories: z.array(z.string()),
  consensusFound: z.boolean(),
  sourceCount: z.number().int().min(0),
  confidence: int0to100.nullable(),
  primarySourceSlug: z.string().nullable(),
  label: z.string().nullable(),
  sanctionsMatch: sanctionsMatchSchema.nullable(),
  labels: z.array(labelClaimSchema),
  smartContract: smartContractSchema,
  categoryDetail: z.array(categoryDetailSchema),
});
export type ScreenFindings = z.infer<typeof screenFindingsSchema>;

export const screenVerdictSchema = z.object({
  version: z.literal(SCREEN_VERDICT_VERSION),
  coverage: screenCoverageSchema,
  verdict: screenFindingsSchema,
});
export type ScreenVerdict = z.infer<typeof screenVerdictSchema>;
