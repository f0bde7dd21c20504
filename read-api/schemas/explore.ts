import { z } from 'zod';
import { exploreReportSchema } from '../../domain/explore/explore-report.js';
import { billingSchema } from './billing.js';
import { EXAMPLE_UUID, isoTimestamp } from './common.js';

/** Bodies of POST /v2/explore and GET /v2/explore/{job_id}/result (commands/explore.commands.ts). */

export const exploreSubmittedSchema = z.strictObject({ job_id: z.string(), result_url: z.string() }).meta({
  description: 'The job is recorded; poll result_url. Nothing is charged until the report is delivered',
  example: { job_id: EXAMPLE_UUID, result_url: `/v2/explore/${EXAMPLE_UUID}/result` },
});
export type ExploreSubmittedBody = z.infer<typeof exploreSubmittedSchema>;

export const exploreRunningSchema = z
  .strictObject({ job_id: z.string(), status: z.literal('running'), result_url: z.string(), requested_at: isoTimestamp })
  .meta({ description: 'Still running: poll again after Retry-After seconds', headers: { 'retry-after': { type: 'integer' } } });
export type ExploreRunningBody = z.infer<typeof exploreRunningSchema>;

export const exploreResultSchema = exploreReportSchema
  .extend({ billing: billingSchema })
  .meta({ description: 'The exposure report (charged on the first 200; later polls replay it with billing.replay true)' });
export type ExploreResultBody = z.infer<typeof exploreResultSchema>;
