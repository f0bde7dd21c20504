import { z } from 'zod';
import { finalAuditSchema } from '../../domain/inspect/final-audit.js';
import { providerAssessmentSchema } from '../../domain/inspect/provider-assessment.js';
import { billingSchema } from './billing.js';
import { EXAMPLE_UUID, isoTimestamp, networkOut, receiptField } from './common.js';

/** Bodies of POST /v2/inspect-address and GET /v2/inspect/{check_id}/result (commands/inspect/deliver-inspect.ts). */

/** One provider's run: its raw verdict (the provider's own shape) and our reading of it, or its failure. */
export const providerEntrySchema = z.union([
  z.strictObject({ ok: z.literal(true), verdict: z.unknown(), assessment: providerAssessmentSchema, elapsed_ms: z.number().min(0) }),
  z.strictObject({ ok: z.literal(false), error: z.string(), elapsed_ms: z.number().min(0) }),
]);
export const providerEntriesSchema = z.record(z.string(), providerEntrySchema);

export const inspectRunningSchema = z
  .strictObject({ check_id: z.string(), status: z.literal('running'), retry_url: z.string(), created_at: isoTimestamp })
  .meta({
    description: 'Still running: poll retry_url (Retry-After seconds, then back off to 10 s); nothing charged yet',
    headers: { 'retry-after': { type: 'integer', description: 'seconds before the first poll' } },
    example: {
      check_id: EXAMPLE_UUID,
      status: 'running',
      retry_url: `/v2/inspect/${EXAMPLE_UUID}/result`,
      created_at: '2026-11-25T15:00:00.000Z',
    },
  });
export type InspectRunningBody = z.infer<typeof inspectRunningSchema>;

export const inspectResultSchema = z
  .strictObject({
    schema_version: z.number().int(),
    check_id: z.string(),
    status: z.literal('completed'),
    address: z.string(),
    network: networkOut,
    created_at: isoTimestamp,
    completed_at: isoTimestamp.nullable(),
    audit: finalAuditSchema.nullable(),
    providers: providerEntriesSchema,
    waived_providers: z.array(z.string()),
    skipped_providers: z.array(z.string()),
    receipt: receiptField,
    billing: billingSchema,
  })
  .meta({ description: 'The synthesized audit and each provider’s verdict (charged on the first delivery)' });
export type InspectResultBody = z.infer<typeof inspectResultSchema>;
