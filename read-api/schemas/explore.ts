import { z } from 'zod';
import { RISK_LEVELS } from '../../domain/shared/verdict-vocabulary.js';
import { billingSchema } from './billing.js';
import { EXAMPLE_UUID, isoTimestamp } from './common.js';
import { exposureBodySchema } from './exposure-body.schema.js';

/** Bodies of POST /v2/explore and GET /v2/explore/{job_id}/result (commands/explore.commands.ts). */

/**
 * The report of an explore job (the 200 body of its result route, billing aside), as
 * read-api/presenters/explore.presenter.ts shapes the domain report (ExploreCompleted): the exposure of
 * each direction searched, and the categories merged over directions with their USD contribution, most
 * severe first. `complete` is true only when every search ran out of addresses within its budget.
 */
export const exploreReportBodySchema = z.object({
  job_id: z.string(),
  report_id: z.string(),
  status: z.literal('completed'),
  address: z.string(),
  network: z.string(),
  direction: z.enum(['in', 'out', 'both']),
  complete: z.boolean(),
  categories: z.array(
    z.object({
      slug: z.string(),
      severity: z.number().int(),
      /** What exposure to the category makes of the address, by the full check's rule (exposure never past high). */
      risk_level: z.enum(RISK_LEVELS),
      contribution_usd: z.number().nonnegative(),
      min_hops: z.number().int(),
    }),
  ),
  incoming: exposureBodySchema.nullable(),
  outgoing: exposureBodySchema.nullable(),
  requested_at: z.string(),
  completed_at: z.string(),
});
export type ExploreReportBody = z.infer<typeof exploreReportBodySchema>;

export const exploreSubmittedSchema = z.strictObject({ job_id: z.string(), result_url: z.string() }).meta({
  description: 'The job is recorded; poll result_url. Nothing is charged until the report is delivered',
  example: { job_id: EXAMPLE_UUID, result_url: `/v2/explore/${EXAMPLE_UUID}/result` },
});
export type ExploreSubmittedBody = z.infer<typeof exploreSubmittedSchema>;

export const exploreRunningSchema = z
  .strictObject({ job_id: z.string(), status: z.literal('running'), result_url: z.string(), requested_at: isoTimestamp })
  .meta({ description: 'Still running: poll again after Retry-After seconds', headers: { 'retry-after': { type: 'integer' } } });
export type ExploreRunningBody = z.infer<typeof exploreRunningSchema>;

export const exploreResultSchema = exploreReportBodySchema
  .extend({ billing: billingSchema })
  .meta({ description: 'The exposure report (charged on the first 200; later polls replay it with billing.replay true)' });
export type ExploreResultBody = z.infer<typeof exploreResultSchema>;
