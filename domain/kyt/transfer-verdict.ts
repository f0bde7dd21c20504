import { z } from 'zod';
import { sourceVersionSchema, transferDataVersionSchema } from '../coverage/data-versions.js';
import { sanctionsCoverageFactSchema } from '../coverage/sanctions-coverage.js';
import { exposurePathSchema } from '../exposure/exposure.schema.js';
import { TRANSFER_CHAINS } from '../shared/network.js';
import { ACTIONS, CATEGORY_LEVELS, COMPOSITE_LEVELS } from '../shared/verdict-vocabulary.js';
import { ALERT_LEVELS } from './alert-level.js';
import { RULE_TYPES } from './policy.types.js';

/**
 * The transfer check's verdict as a domain fact, what TransferCheckCompleted records (docs/ARCHITECTURE.md,
 * "Verdicts as domain facts"): the transaction, its legs, the USD-weighted composite of its senders, the
 * policy version applied with the alerts it raised and why, what the check read (the sanctions lists, the
 * sources at their versions and content hashes, the transfer data) and when. Money in micro-USD, shares as
 * fractions (0..1): the response bodies' USD and percent are the presenter's
 * (read-api/presenters/transfer.presenter.ts). `version` is this shape's: a change bumps it, and the
 * event registry's upcaster reads the older one.
 *
 * A transaction can move value thousands of times: the verdict lists at most MAX_LISTED legs, senders and
 * senders per explanation, and says how many there are. The levels and the recommended action are
 * recorded as decided, not derived again when read.
 */

export const TRANSFER_VERDICT_VERSION = 1;

const categoryLevel = z.enum(CATEGORY_LEVELS);
const compositeLevel = z.enum(COMPOSITE_LEVELS);
const micros = z.number().int().nonnegative();

export const verdictLegSchema = z.object({
  kind: z.enum(['native', 'token']),
  token: z.string().nullable(),
  symbol: z.string().nullable(),
  decimals: z.number().int().nullable(),
  from: z.string(),
  to: z.string(),
  /** Base units as a decimal string. */
  amount: z.string(),
  /** Null when the asset had no price. */
  usdMicros: micros.nullable(),
  logIndex: z.number().int().nullable(),
});

export const verdictSenderSchema = z.object({
  address: z.string(),
  label: z.string().nullable(),
  usdMicros: micros,
  /** Its weight in the composite (0..1). */
  weight: z.number(),
  legs: z.number().int(),
  dataAvailable: z.boolean(),
  riskScore: z.number(),
  riskLevel: compositeLevel,
  direct: z.array(
    z.object({ slug: z.string(), level: categoryLevel, severity: z.number(), confidence: z.number(), sources: z.array(z.string()) }),
  ),
  indirect: z.array(
    z.object({
      slug: z.string(),
      /** Of the sender's traced inflow (0..1). */
      share: z.number(),
      hops: z.number().int().nullable(),
      /** What of this transfer the share traces: the sender's USD × share, as computed then. */
      usdMicros: micros,
      paths: z.array(exposurePathSchema),
    }),
  ),
  graph: z.enum(['analysed', 'budget_exhausted', 'no_history', 'not_available', 'skipped']),
});
export type VerdictSender = z.infer<typeof verdictSenderSchema>;

const categoryShareSchema = z.object({ share: z.number(), usdMicros: micros });

export const verdictCategorySchema = z.object({
  slug: z.string(),
  displayName: z.string(),
  level: categoryLevel,
  severity: z.number(),
  /** Null when no sender carries it of that kind. */
  direct: categoryShareSchema.nullable(),
  indirect: categoryShareSchema.nullable(),
});
export type VerdictCategory = z.infer<typeof verdictCategorySchema>;

/** An alert in the spec's shape (Events → tx.policy.alert.triggered → Alert fields), as the policy engine raised it. */
export const verdictAlertSchema = z.object({
  category: z.string(),
  riskLevel: z.enum(ALERT_LEVELS),
  ruleType: z.enum(RULE_TYPES),
  actualShare: z.number(),
  thresholdShare: z.number(),
  thresholdValue: z.number(),
  entityName: z.string().nullable(),
  entityAddress: z.string().nullable(),
  direction: z.literal('incoming'),
  entityScore: z.number(),
});

/** A source behind the verdict; `importedAt` is absent in verdicts recorded before it was kept. */
const verdictSourceSchema = sourceVersionSchema.extend({ importedAt: z.string().optional() });

export const transferVerdictSchema = z.object({
  version: z.literal(TRANSFER_VERDICT_VERSION),
  checkId: z.string(),
  chain: z.enum(TRANSFER_CHAINS),
  txHash: z.string(),
  transaction: z.object({
    blockNumber: z.number().int(),
    blockTime: z.string(),
    success: z.boolean(),
    signer: z.string(),
    to: z.string().nullable(),
  }),
  composite: z.object({
    totalUsdMicros: micros,
    pricing: z.enum(['full', 'partial', 'none']),
    weighting: z.enum(['usd', 'equal']),
    /** The price sources used and the date of the row each answered from. */
    prices: z.array(z.object({ source: z.string(), asOf: z.string() })),
    riskScore: z.number(),
    riskLevel: compositeLevel,
    unknownShare: z.number(),
    legsTotal: z.number().int().nonnegative(),
    legs: z.array(verdictLegSchema),
    sendersTotal: z.number().int().nonnegative(),
    senders: z.array(verdictSenderSchema),
    categories: z.array(verdictCategorySchema),
    patterns: z.array(z.object({ slug: z.string(), address: z.string(), detail: z.string() })),
  }),
  policy: z.object({
    /** `standard`, or the subgroup's own policy; absent in checks completed before policies had ids. */
    id: z.string().optional(),
    name: z.string(),
    version: z.string(),
    taxonomyVersion: z.string(),
    worstLevel: z.enum(ALERT_LEVELS).nullable(),
    recommendedAction: z.enum(ACTIONS),
    alerts: z.array(verdictAlertSchema),
    explanations: z.array(
      z.object({
        ruleId: z.string(),
        categorySlug: z.string(),
        exposureUsdMicros: micros,
        note: z.string(),
        sendersTotal: z.number().int().nonnegative(),
        senders: z.array(z.string()),
      }),
    ),
  }),
  /** What the check read; absent in checks completed before it was recorded. */
  coverage: z
    .object({
      sanctions: sanctionsCoverageFactSchema,
      taxonomy: z.string(),
      snapshot: z.string().nullable(),
      sources: z.array(verdictSourceSchema),
      transferData: z.array(transferDataVersionSchema),
    })
    .optional(),
  checkedAt: z.string(),
});
export type TransferVerdict = z.infer<typeof transferVerdictSchema>;
