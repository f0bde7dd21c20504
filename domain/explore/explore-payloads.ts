import { z } from 'zod';

/** The spec's payloads of `service.bfs.completed` and `service.bfs.failed`. */

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
