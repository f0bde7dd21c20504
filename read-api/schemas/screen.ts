import { z } from 'zod';
import { coverageSchema, verdictSchema } from '../../domain/intel/screen-verdict.schema.js';
import { billingSchema } from './billing.js';
import { addressOut, networkOut } from './common.js';

/** The 200 body of POST /v2/screen (commands/screen-address.ts), billing and timing included. */
export const screenResultSchema = z.strictObject({
  schema_version: z.number().int(),
  address: addressOut,
  network: networkOut,
  provider: z.string(),
  coverage: coverageSchema,
  verdict: verdictSchema,
  billing: billingSchema,
  elapsed_ms: z.number().int().min(0),
});
export type ScreenResultBody = z.infer<typeof screenResultSchema>;
