import { z } from 'zod';
import { fullCheckResultSchema } from './full-check-result.schema.js';
import { billingSchema } from './billing.js';
import { isoTimestamp, receiptField } from './common.js';
import { CHECK_SUBMITTED_EXAMPLE } from './examples.js';

/** Bodies of POST /v2/check-address and GET /v2/check-address/{check_id}/result (commands/address-check.commands.ts). */

const retryAfter = { 'retry-after': { type: 'integer', description: 'seconds before polling again' } };

export const checkSubmittedSchema = z.strictObject({ check_id: z.string(), result_url: z.string() }).meta({
  description: 'The check is recorded; poll result_url. Nothing is charged until the result is delivered',
  example: CHECK_SUBMITTED_EXAMPLE,
});
export type CheckSubmittedBody = z.infer<typeof checkSubmittedSchema>;

export const checkRunningSchema = z
  .strictObject({ check_id: z.string(), status: z.literal('running'), result_url: z.string(), requested_at: isoTimestamp })
  .meta({ description: 'Still running: poll again after Retry-After seconds; nothing charged', headers: retryAfter });
export type CheckRunningBody = z.infer<typeof checkRunningSchema>;

export const checkResultSchema = fullCheckResultSchema
  .extend({ receipt: receiptField, billing: billingSchema })
  .meta({ description: 'The verdict (charged on the first 200; later polls replay it with billing.replay true)' });
export type CheckResultBody = z.infer<typeof checkResultSchema>;
