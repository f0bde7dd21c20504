import { z } from 'zod';
import { SCREEN_NETWORKS } from '../shared/network.js';
import { finalAuditSchema } from './final-audit.js';
import { providerAssessmentSchema } from './provider-assessment.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `inspect-{checkId}`: one multi-provider inspect, from the request to every provider's outcome
 * and the synthesized audit. (The address full check has its own `check-{checkId}` streams.)
 */
export const inspectStreams = streamFamily('inspect');
export const INSPECT_STREAM_PREFIX = inspectStreams.prefix;
export const inspectStream = inspectStreams.stream;

const providerRun = z.object({ name: z.string(), kind: z.string() });

export const inspectEventSchemas = {
  InspectRequested: z.object({
    checkId: z.string(),
    userId: z.string(),
    keyId: z.string(),
    address: z.string(),
    network: z.enum(SCREEN_NETWORKS),
    /** SHA-256 of the normalized request: a retry with the same Idempotency-Key must match it. */
    requestHash: z.string(),
    providers: z.array(providerRun),
    waived: z.array(z.string()),
    skipped: z.array(z.string()),
    at: z.string(),
  }),
  ProviderAnswered: z.object({
    provider: z.string(),
    raw: z.unknown(),
    assessment: providerAssessmentSchema,
    elapsedMs: z.number().int().nonnegative(),
    at: z.string(),
  }),
  ProviderFailed: z.object({ provider: z.string(), error: z.string(), elapsedMs: z.number().int().nonnegative(), at: z.string() }),
  InspectCompleted: z.object({ audit: finalAuditSchema, at: z.string() }),
  /** Every provider failed: the pipeline error of the spec (502, nothing kept charged). */
  InspectFailed: z.object({ reason: z.string(), at: z.string() }),
  /** Still running at the spec's wall-clock cap of 15 minutes: `failed_timeout` (502, nothing charged). */
  InspectTimedOut: z.object({ at: z.string() }),
} as const;

/** The events after which an inspect's outcome no longer changes. */
export const INSPECT_TERMINAL_EVENTS = ['InspectCompleted', 'InspectFailed', 'InspectTimedOut'] as const;

type Schemas = typeof inspectEventSchemas;
export type InspectEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
export type InspectRequest = z.infer<Schemas['InspectRequested']>;
