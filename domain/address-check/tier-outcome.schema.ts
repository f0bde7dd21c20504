import { z } from 'zod';
import { sourceVersionSchema } from '../coverage/data-versions.js';
import { sanctionsCoverageFactSchema } from '../coverage/sanctions-coverage.js';
import { exposureResultSchema } from '../exposure/exposure.schema.js';
import { sanctionsMatchSchema, screenVerdictSchema } from '../intel/screen-verdict.schema.js';

/**
 * What each tier of the full check found, as recorded in its TierCompleted event. Tiers:
 * 0 sanctions, 1 consensus (both from the intelligence index), 2 one-hop counterparties, 3 source of
 * funds (breadth-first over incoming transfers), 4 destination of funds (over outgoing transfers).
 */

export const TIERS = [0, 1, 2, 3, 4] as const;
export type Tier = (typeof TIERS)[number];

export const TIER_NAMES: Readonly<Record<Tier, string>> = {
  0: 'sanctions',
  1: 'consensus',
  2: 'one_hop',
  3: 'source_of_funds',
  4: 'destination_of_funds',
};

/** Why a transfer tier did not run. */
export const notAppliedReasonSchema = z.enum([
  /** The transfer index holds no transfer of the address on this network. */
  'no_transaction_history',
  /** Fewer transfers in the tier's direction than the graph search needs. */
  'too_few_transfers',
  /** The address is a known service (exchange, DeFi contract, token): its pooled funds say nothing of one customer. */
  'service_address',
]);
export type NotAppliedReason = z.infer<typeof notAppliedReasonSchema>;

const transferDataSchema = z.object({
  datasets: z.array(
    z.object({
      name: z.string(),
      transfers: z.number().int(),
      from: z.string().nullable(),
      to: z.string().nullable(),
      caveat: z.string().nullable(),
      // What the data is and how current (absent in outcomes recorded before they were)
      kind: z.enum(['sample', 'ingested_blocks', 'account_history_api', 'synthetic']).nullable().optional(),
      version: z.string().nullable().optional(),
      asOf: z.string().nullable().optional(),
      upToBlock: z.number().int().nullable().optional(),
      cap: z.string().nullable().optional(),
    }),
  ),
});

/** The versions of the sources behind every entity the tier's search reached (absent in outcomes recorded before). */
const sourceVersions = z.array(sourceVersionSchema).optional();

export const activitySchema = z.object({
  incomingTransfers: z.number().int().nonnegative(),
  outgoingTransfers: z.number().int().nonnegative(),
  incomingUsdMicros: z.number().int().nonnegative(),
  outgoingUsdMicros: z.number().int().nonnegative(),
  unpricedTransfers: z.number().int().nonnegative(),
  firstAt: z.string(),
  lastAt: z.string(),
});
export type ActivitySummary = z.infer<typeof activitySchema>;

export const tierOutcomeSchema = z.discriminatedUnion('tier', [
  z.object({
    tier: z.literal(0),
    sanctioned: z.boolean(),
    sdnMatch: sanctionsMatchSchema.nullable(),
    /** The intelligence data sets the index held (`source@version`): what "not listed" was checked against. */
    datasetsChecked: z.array(z.string()),
    /** The sanctions lists checked, per jurisdiction, and those not checked (absent in checks recorded before it was). */
    sanctions: sanctionsCoverageFactSchema.optional(),
  }),
  // The light screen's verdict as it was when the tier ran (a domain fact; TierCompleted version 1 kept
  // it, and tier 0's match, in the body's words: tier-completed.upcast.ts reads them).
  z.object({ tier: z.literal(1), screen: screenVerdictSchema }),
  z.object({
    tier: z.literal(2),
    applied: z.boolean(),
    reason: notAppliedReasonSchema.nullable(),
    activity: activitySchema.nullable(),
    incoming: exposureResultSchema.nullable(),
    outgoing: exposureResultSchema.nullable(),
    transferData: transferDataSchema,
    sourceVersions,
  }),
  z.object({
    tier: z.literal(3),
    applied: z.boolean(),
    reason: notAppliedReasonSchema.nullable(),
    exposure: exposureResultSchema.nullable(),
    sourceVersions,
  }),
  z.object({
    tier: z.literal(4),
    applied: z.boolean(),
    reason: notAppliedReasonSchema.nullable(),
    exposure: exposureResultSchema.nullable(),
    sourceVersions,
  }),
]);
export type TierOutcome = z.infer<typeof tierOutcomeSchema>;
export type TierOutcomeOf<T extends Tier> = Extract<TierOutcome, { tier: T }>;
