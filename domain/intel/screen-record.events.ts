import { z } from 'zod';
import { sdnMatchSchema, type VerdictBody } from './screen-verdict.schema.js';

/**
 * Stream `screen-{callId}`: the summary of one charged light screen's verdict, kept so that the account's
 * History can show its risk level and open it later (the whole verdict is recomputed on every call and
 * never stored). Field names are the verdict body's, so the pages read it as they read a verdict.
 */
export const SCREEN_RECORD_STREAM_PREFIX = 'screen-';
export const screenRecordStream = (callId: string): string => `${SCREEN_RECORD_STREAM_PREFIX}${callId}`;

const riskLevel = z.enum(['none', 'low', 'medium', 'high', 'critical', 'sanctioned']);

export const screenSummarySchema = z.object({
  risk_level: riskLevel.nullable(),
  risk_score: z.number().int().min(0).max(100).nullable(),
  confidence: z.number().int().min(0).max(100).nullable(),
  source_count: z.number().int().min(0),
  label: z.string().nullable(),
  data_available: z.boolean(),
  sdn_match: sdnMatchSchema.nullable(),
  categories: z.array(z.object({ slug: z.string(), risk_level: riskLevel.nullable() })),
});
export type ScreenSummary = z.infer<typeof screenSummarySchema>;

export const screenRecordEventSchemas = {
  ScreenVerdictRecorded: z.object({
    callId: z.string(),
    userId: z.string(),
    address: z.string(),
    network: z.string(),
    summary: screenSummarySchema,
    at: z.string(),
  }),
} as const;

type Schemas = typeof screenRecordEventSchemas;
export type ScreenRecordEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];

/** What the summary keeps of a verdict: the level, score, sanctions match and categories, not the labels. */
export function screenSummaryOf(verdict: VerdictBody, dataAvailable: boolean): ScreenSummary {
  return {
    risk_level: verdict.risk_level,
    risk_score: verdict.risk_score,
    confidence: verdict.confidence,
    source_count: verdict.source_count,
    label: verdict.label,
    data_available: dataAvailable,
    sdn_match: verdict.sdn_match,
    categories: verdict.risk_category_detail.map((c) => ({ slug: c.slug, risk_level: c.risk_level })),
  };
}
