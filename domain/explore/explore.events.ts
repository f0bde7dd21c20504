import { z } from 'zod';
import { checkOwnerSchema } from '../address-check/address-check.events.js';
import { exposureBudgetSchema } from '../exposure/exposure.schema.js';
import { exploreReportSchema } from './explore-report.js';

/**
 * Stream `explore-{jobId}`: one asynchronous graph exposure job (POST /explore on x402, POST /v2/explore).
 * The webhook-ready events `service.bfs.completed` and `service.bfs.failed` are appended in the same
 * decision as the job's outcome, with the spec's payload and the job's owner for routing.
 */
export const exploreStream = (jobId: string): string => `explore-${jobId}`;
export const EXPLORE_STREAM_PREFIX = 'explore-';
export const BFS_COMPLETED_EVENT = 'service.bfs.completed';
export const BFS_FAILED_EVENT = 'service.bfs.failed';

const at = z.string();

export const bfsCompletedPayloadSchema = z.object({
  job_id: z.string(),
  address: z.string(),
  network: z.string(),
  report_id: z.string(),
  /** Sorted by severity, most severe first; contribution in USD. */
  categories: z.array(z.object({ slug: z.string(), severity: z.number().int(), contribution: z.number().nonnegative() })),
  complete: z.boolean(),
});

export const bfsFailedPayloadSchema = z.object({ job_id: z.string(), address: z.string(), network: z.string(), error: z.string() });

export const exploreEventSchemas = {
  ExploreRequested: z.object({
    jobId: z.string(),
    owner: checkOwnerSchema,
    address: z.string(),
    network: z.enum(['BSC', 'ETH', 'TRON']),
    direction: z.enum(['in', 'out', 'both']),
    budget: exposureBudgetSchema,
    requestedAt: at,
  }),
  ExploreAttemptFailed: z.object({ attempt: z.number().int().min(1), error: z.string(), at }),
  ExploreCompleted: z.object({ report: exploreReportSchema, at }),
  ExploreFailed: z.object({ error: z.string(), attempts: z.number().int().nonnegative(), at }),
  ExploreResultDelivered: z.object({ billing: z.record(z.string(), z.unknown()).nullable(), at }),
  [BFS_COMPLETED_EVENT]: z.object({ owner: checkOwnerSchema, payload: bfsCompletedPayloadSchema }),
  [BFS_FAILED_EVENT]: z.object({ owner: checkOwnerSchema, payload: bfsFailedPayloadSchema }),
} as const;

type Schemas = typeof exploreEventSchemas;
export type ExploreEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
