import { z } from 'zod';
import { checkOwnerSchema } from '../address-check/address-check.events.js';
import { exposureBudgetSchema } from '../exposure/exposure.schema.js';
import { raisedWebhookSchema, WEBHOOK_EVENT_RAISED } from '../address-check/raised-webhook.js';
import { exploreReportSchema } from './explore-report.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `explore-{jobId}`: one asynchronous graph exposure job (POST /explore on x402, POST /v2/explore).
 * The webhook events `service.bfs.completed` and `service.bfs.failed` are raised (WebhookEventRaised) in
 * the same decision as the job's outcome, for a V2 owner.
 */
export const exploreStreams = streamFamily('explore');
export const exploreStream = exploreStreams.stream;
export const EXPLORE_STREAM_PREFIX = exploreStreams.prefix;

const at = z.string();

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
  /** The report as a domain fact (version 2; version 1 stored the body, upcast by explore-completed.upcast.ts). */
  ExploreCompleted: z.object({ report: exploreReportSchema, at }),
  ExploreFailed: z.object({ error: z.string(), attempts: z.number().int().nonnegative(), at }),
  ExploreResultDelivered: z.object({ billing: z.record(z.string(), z.unknown()).nullable(), at }),
  /** service.bfs.completed / service.bfs.failed for a V2 owner, beside the outcome they report. */
  [WEBHOOK_EVENT_RAISED]: raisedWebhookSchema,
} as const;

type Schemas = typeof exploreEventSchemas;
export type ExploreEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
