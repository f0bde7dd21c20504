import { z } from 'zod';

/** GET /v2/verdicts/{verdict_id}: a verdict the account was given, read back with its receipt. */
export const storedVerdictSchema = z
  .strictObject({
    verdict_id: z.string().meta({ description: 'The verdict’s id: a light screen’s call id, or a full, transfer or inspect check’s id' }),
    kind: z
      .string()
      .meta({ description: 'What was bought: `screen`, `check_address`, `check_transfer` or `inspect` (the History’s kinds)' }),
    network: z.string().nullable(),
    subject: z.string().nullable().meta({ description: 'The address (or transaction hash) the verdict is about' }),
    created_at: z.string().nullable().meta({ description: 'When the verdict was charged' }),
    verdict: z.record(z.string(), z.unknown()).nullable().meta({
      description:
        'The verdict as its own route answered it, without that call’s billing and receipt (a full check’s, transfer check’s or inspect’s result body); for a light screen, the summary its charge kept (level, score, confidence, sanctions match, categories, jurisdictions checked). Null for a light screen charged before its verdict was kept',
    }),
    receipt: z
      .string()
      .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
      .nullable()
      .meta({
        description:
          'The verdict’s receipt (docs/api.md, "Verifying a verdict"): a light screen’s is the one it answered with; a check’s is signed from its stored completion (the same bytes under the same key). Null for a verdict kept before receipts were, and `receipt_note` says so',
      }),
    receipt_note: z.string().nullable().meta({ description: 'Why the verdict has no receipt (null when it has one)' }),
  })
  .meta({ description: 'A stored verdict and its receipt' });
