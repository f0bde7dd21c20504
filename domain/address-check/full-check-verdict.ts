import { z } from 'zod';
import { sourceVersionSchema, transferDataVersionSchema } from '../coverage/data-versions.js';
import { sanctionsCoverageFactSchema } from '../coverage/sanctions-coverage.js';
import { exposureFoundSchema } from '../exposure/exposure-found.js';
import { exposurePathSchema } from '../exposure/exposure.schema.js';
import { categoryDetailSchema, labelClaimSchema, sanctionsMatchSchema, smartContractSchema } from '../intel/screen-verdict.schema.js';
import { DECISIONS, RISK_LEVELS } from '../shared/verdict-vocabulary.js';
import { activitySchema, notAppliedReasonSchema } from './tier-outcome.schema.js';

/**
 * The full check's verdict as a domain fact, what CheckCompleted records (docs/ARCHITECTURE.md, "Verdicts
 * as domain facts"): who was checked and when, the level and decision with the findings behind them, each
 * tier's outcome, the exposure found in each direction, and the data it was computed from (every source
 * at its version and content hash, the taxonomy, the transfer data read and the sanctions lists checked).
 * Money in micro-USD, shares as fractions (0..1): the response bodies' USD and percent are the
 * presenters' (read-api/presenters/full-check.presenter.ts). `version` is this shape's: a change bumps
 * it, and the event registry's upcaster reads the older one.
 *
 * The address's own intelligence (labels, smart contract, category detail, sanctions match) keeps the
 * light screen's domain shapes, those tier 1 recorded (../intel/screen-verdict.schema.ts), and changes
 * with them. Version 1 kept them in the body's words (CheckCompleted version 2; check-completed.upcast.ts).
 */

export const FULL_CHECK_VERDICT_VERSION = 2;

const riskLevel = z.enum(RISK_LEVELS);
const tier = z.number().int().min(0).max(4);

export const verdictEvidenceSchema = z.object({
  slug: z.string(),
  severity: z.number().int().nullable(),
  /** The level this finding alone makes of the address. */
  addressLevel: riskLevel.nullable(),
  /** ownership: the address itself; direct: a counterparty; indirect: further away. */
  relation: z.enum(['ownership', 'direct', 'indirect']),
  direction: z.enum(['self', 'incoming', 'outgoing']),
  tier,
  /** Null for the address's own attributions (no flow behind them). */
  usdMicros: z.number().int().nonnegative().nullable(),
  share: z.number().nullable(),
  weightedShare: z.number().nullable(),
  hops: z.number().int().min(0),
  sources: z.array(z.string()),
  paths: z.array(exposurePathSchema),
});
export type VerdictEvidence = z.infer<typeof verdictEvidenceSchema>;

export const exposureOutcomeSchema = z.object({
  applied: z.boolean(),
  reason: notAppliedReasonSchema.nullable(),
  /** Null when the search did not run. */
  found: exposureFoundSchema.nullable(),
});
export type ExposureOutcome = z.infer<typeof exposureOutcomeSchema>;

export const tierVerdictSchema = z.object({
  tier,
  applied: z.boolean(),
  reason: notAppliedReasonSchema.nullable(),
  /** The level of the address this tier's findings alone reach. */
  addressLevel: riskLevel,
});

/** A source behind the verdict; `importedAt` is absent in verdicts recorded before it was kept. */
const verdictSourceSchema = sourceVersionSchema.extend({ importedAt: z.string().optional() });

export const fullCheckVerdictSchema = z.object({
  version: z.literal(FULL_CHECK_VERDICT_VERSION),
  checkId: z.string(),
  subject: z.object({ address: z.string(), network: z.string() }),
  /** The engine that computed it (ours: `service`). */
  engine: z.string(),
  decision: z.enum(DECISIONS),
  decisionReason: z.string(),
  risk: z.object({
    level: riskLevel.nullable(),
    /** 0..100, as the light screen's (the body's `risk_score` promises it). */
    score: z.number().int().min(0).max(100).nullable(),
    categories: z.array(z.string()),
    /** The first tier whose finding alone reached the level (null when nothing was found). */
    tierHit: tier.nullable(),
    ownershipLevel: riskLevel,
    exposureLevel: riskLevel,
    sourceCount: z.number().int().min(0),
    confidence: z.number().int().min(0).max(100).nullable(),
    primarySourceSlug: z.string().nullable(),
  }),
  /** The address's own intelligence as tier 1 found it. */
  intel: z.object({
    consensusFound: z.boolean(),
    label: z.string().nullable(),
    sdnMatch: sanctionsMatchSchema.nullable(),
    labels: z.array(labelClaimSchema),
    smartContract: smartContractSchema,
    categoryDetail: z.array(categoryDetailSchema),
  }),
  coverage: z.object({
    dataAvailable: z.boolean(),
    labelCount: z.number().int().min(0),
    sourceCount: z.number().int().min(0),
    consensusFound: z.boolean(),
    /** Absent only in verdicts recorded before verdicts stated it. */
    sanctions: sanctionsCoverageFactSchema.optional(),
    /** The transfer data sets of the network the one-hop tier read. */
    transferDatasets: z.array(
      z.object({
        name: z.string(),
        transfers: z.number().int(),
        from: z.string().nullable(),
        to: z.string().nullable(),
        caveat: z.string().nullable(),
      }),
    ),
  }),
  /** Every source behind the verdict at any tier or hop (older verdicts: the address's own only), and the transfer data read. */
  dataVersions: z.object({
    taxonomy: z.string(),
    snapshot: z.string().nullable(),
    sources: z.array(verdictSourceSchema),
    /** Absent in verdicts recorded before it was kept. */
    transferData: z.array(transferDataVersionSchema).optional(),
  }),
  evidence: z.array(verdictEvidenceSchema),
  exposure: z.object({
    directIncoming: exposureOutcomeSchema,
    directOutgoing: exposureOutcomeSchema,
    sourceOfFunds: exposureOutcomeSchema,
    destinationOfFunds: exposureOutcomeSchema,
  }),
  activity: activitySchema.nullable(),
  tiers: z.array(tierVerdictSchema),
  requestedAt: z.string(),
  completedAt: z.string(),
});
export type FullCheckVerdict = z.infer<typeof fullCheckVerdictSchema>;
