import { z } from 'zod';
import { coverageSchema, verdictSchema } from './screen-verdict.body.js';
import { billingSchema } from './billing.js';
import { addressOut, networkOut, receiptField } from './common.js';
import { SCREEN_EXAMPLE } from './examples.js';

/** The 200 body of POST /v2/screen (commands/screen-address.ts), billing and timing included. */
export const screenResultSchema = z
  .strictObject({
    schema_version: z.number().int(),
    address: addressOut,
    network: networkOut,
    provider: z.string(),
    coverage: coverageSchema,
    verdict: verdictSchema,
    receipt: receiptField,
    verdict_id: z.string().optional().meta({
      description:
        'The verdict’s id (its receipt’s `verdictId`): read it back with GET /v2/verdicts/{verdict_id}. Absent from replays of screens made before it was given',
    }),
    billing: billingSchema,
    elapsed_ms: z.number().int().min(0),
  })
  .meta({ description: 'The verdict, charged (billing says how)', example: SCREEN_EXAMPLE });
export type ScreenResultBody = z.infer<typeof screenResultSchema>;
