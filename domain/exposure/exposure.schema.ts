import { z } from 'zod';
import { RISK_LEVELS } from '../shared/verdict-vocabulary.js';

/**
 * The shapes of exposure results, as zod schemas because they travel inside stored events (tier
 * outcomes, explore reports) and are validated when those are read back. Money is integer micro-USD.
 */

export const riskLevelSchema = z.enum(RISK_LEVELS);

/** One labelled entity reached by the search, by the route that carried the most of its value. */
export const exposurePathSchema = z.object({
  hops: z.number().int().min(1),
  /** In the direction funds moved: the labelled entity first for incoming funds, last for outgoing. */
  addresses: z.array(z.string()).min(2),
  /** USD of the anchor's flow traced to this entity (over all routes), micro-USD. */
  usdMicros: z.number().int().nonnegative(),
  /** The same as a fraction (0..1) of the anchor's flow in this direction. */
  share: z.number().min(0).max(1),
  label: z.string().nullable(),
  /** Public slug of the source behind the entity's category. */
  source: z.string(),
  /** Part of the USD value rests on an assumed asset (see the transfer data's caveats). */
  usdEstimated: z.boolean(),
});
export type ExposurePath = z.infer<typeof exposurePathSchema>;

export const categoryExposureSchema = z.object({
  slug: z.string(),
  severity: z.number().int().min(0).max(10),
  riskLevel: riskLevelSchema,
  usdMicros: z.number().int().nonnegative(),
  share: z.number().min(0).max(1),
  /** Σ share · DECAY^(hops − 1): the share discounted per hop, what the verdict rule reads. */
  weightedShare: z.number().min(0).max(1),
  minHops: z.number().int().min(1),
  entities: z.number().int().min(1),
  /** The heaviest entities of the category, at most three. */
  paths: z.array(exposurePathSchema),
  /** Public slugs of every source behind the category at any entity reached (absent in results stored before). */
  sources: z.array(z.string()).optional(),
  /** The highest noisy-OR confidence (0..100) of the category at an entity reached; null when none has one. */
  confidence: z.number().int().min(0).max(100).nullable().optional(),
});
export type CategoryExposure = z.infer<typeof categoryExposureSchema>;

/** An attributed service (exchange, DeFi, token; below the risk floor) the search reached and did not follow: funds there are pooled. */
export const serviceStopSchema = z.object({
  address: z.string(),
  category: z.string(),
  label: z.string().nullable(),
  hops: z.number().int().min(1),
  /** Fraction (0..1) of the anchor's flow traced to it, and the same in micro-USD (0 when weighted by transfer count). */
  share: z.number().min(0).max(1),
  usdMicros: z.number().int().nonnegative(),
});
export type ServiceStop = z.infer<typeof serviceStopSchema>;

/**
 * The counterparties of an address the search expanded but did not follow: past the per-node limit, or a
 * super-node's aggregated remainder (the graph store keeps only its heaviest counterparties one by one).
 */
export const remainderStopSchema = z.object({
  address: z.string(),
  /** 0: the anchor itself. */
  hops: z.number().int().min(0),
  /** Counterparties of the address in the search's direction that were not followed. */
  counterparties: z.number().int().nonnegative(),
  /** Fraction (0..1) of the anchor's flow that reached this remainder and was not traced further, and the same in micro-USD. */
  share: z.number().min(0).max(1),
  usdMicros: z.number().int().nonnegative(),
  /** The address's whole flow with those counterparties (micro-USD), not only the anchor's part of it. */
  remainderUsdMicros: z.number().int().nonnegative(),
  /** The store holds only an aggregate for some of them: the address is a super-node. */
  superNode: z.boolean(),
});
export type RemainderStop = z.infer<typeof remainderStopSchema>;

/** Where the search stopped short of the whole graph on purpose (services) or by the shape of the data (remainders). */
export const searchStopsSchema = z.object({
  /** The heaviest services stopped at (at most STOPS_LISTED), and how many there were. */
  services: z.array(serviceStopSchema),
  servicesTotal: z.number().int().nonnegative(),
  /** The heaviest remainders not expanded (at most STOPS_LISTED), and how many there were. */
  remainders: z.array(remainderStopSchema),
  remaindersTotal: z.number().int().nonnegative(),
});
export type SearchStops = z.infer<typeof searchStopsSchema>;

export const stopReasonSchema = z.enum(['max_nodes', 'max_edges', 'max_hops', 'time', 'per_node_limit']);

export const exposureResultSchema = z.object({
  direction: z.enum(['in', 'out']),
  /** True when the search ran out of addresses to follow within the budget. */
  complete: z.boolean(),
  /** Which budget cut the search short (null when complete). */
  stoppedBy: stopReasonSchema.nullable(),
  /** How flows were weighted: by USD, or by transfer count when the anchor's transfers have no price. */
  weighting: z.enum(['usd', 'transfer_count']),
  totalUsdMicros: z.number().int().nonnegative(),
  totalTransfers: z.number().int().nonnegative(),
  /** Most severe first, then most USD. */
  categories: z.array(categoryExposureSchema),
  /** Share of the flow that reached no labelled address (dead ends, dust pruned, budget cut). */
  unattributedShare: z.number().min(0).max(1),
  nodesVisited: z.number().int().nonnegative(),
  edgesScanned: z.number().int().nonnegative(),
  hopsReached: z.number().int().nonnegative(),
  elapsedMs: z.number().nonnegative(),
  usdEstimated: z.boolean(),
  /** Absent in results recorded before the search reported its stops. */
  stops: searchStopsSchema.optional(),
});
export type ExposureResult = z.infer<typeof exposureResultSchema>;

export const exposureBudgetSchema = z.object({
  maxNodes: z.number().int().min(1),
  maxEdges: z.number().int().min(1),
  maxHops: z.number().int().min(1).max(20),
  timeMs: z.number().int().min(1),
  /** Counterparties followed per address, the heaviest first (hubs have hundreds of thousands). */
  perNodeLimit: z.number().int().min(1),
});
export type ExposureBudget = z.infer<typeof exposureBudgetSchema>;
