import { z } from 'zod';
import { REPLAYABLE_KINDS } from '../../domain/replay/verdict-replay.js';

/** GET /v2/verdicts/{verdict_id}: a verdict the account was given, read back with its receipt. */
export const storedVerdictSchema = z
  .strictObject({
    verdict_id: z.string().meta({
      description:
        'The verdict’s id: a light screen’s call id, a full, transfer or inspect check’s id, or a monitor change’s `{monitor_id}:{change}` (its receipt’s verdictId)',
    }),
    kind: z.string().meta({
      description:
        'What was bought: `screen`, `check_address`, `check_transfer` or `inspect` (the History’s kinds), or `monitor_change` (a monitor’s change, not charged)',
    }),
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

const differenceSchema = z
  .strictObject({
    path: z
      .string()
      .meta({ description: 'The field’s path in the compared verdict, e.g. `summary.risk_level` or `verdict.labels[2].source`' }),
    was: z.unknown().optional().meta({ description: 'Its value in the verdict given (absent: the field was not there)' }),
    now: z.unknown().optional().meta({ description: 'Its value recomputed (absent: the field is not there now)' }),
  })
  .meta({ description: 'One field that differs' });

const sourceRowSchema = z.strictObject({
  source: z.string(),
  version: z.string(),
  content_hash: z.string(),
  imported_at: z.string().optional(),
});

const comparisonFields = {
  result: z.enum(['identical', 'different']),
  difference_count: z.number().int().min(0),
  differences: z.array(differenceSchema).meta({ description: 'The first 200 differing fields, in path order' }),
  data_versions: z.array(sourceRowSchema).meta({ description: 'The intelligence sources the recomputed verdict read, at their versions' }),
};

/** POST /v2/verdicts/{verdict_id}/replay. */
export const verdictReplaySchema = z
  .strictObject({
    verdict_id: z.string(),
    kind: z.enum(REPLAYABLE_KINDS),
    made_at: z.string().meta({ description: 'When the verdict was made: the intelligence and policy are read as they were then' }),
    as_of: z
      .strictObject(comparisonFields)
      .meta({ description: 'The verdict recomputed from the event log as of its time, against the verdict given' }),
    today: z
      .strictObject({
        at: z.string(),
        ...comparisonFields,
        changes: z.array(z.string()).meta({ description: 'What changed since, in words' }),
      })
      .nullable()
      .meta({ description: 'The verdict recomputed with today’s data (`?today=true`), against the verdict given; null when not asked' }),
    recorded_inputs: z.array(z.string()).meta({
      description: 'The inputs that came from outside the log’s intelligence (chain data, prices, providers), replayed as recorded',
    }),
    recorded_answers: z
      .array(
        z.strictObject({
          provider: z.string(),
          kind: z.string().meta({ description: 'The provider’s kind (its API), as the inspect ran it' }),
          outcome: z.enum(['answered', 'failed']).meta({ description: '`failed`: it did not answer then, and counts as failed again' }),
        }),
      )
      .meta({
        description:
          'An inspect’s outside providers, whose recorded answers the replay reused (they are not asked again, with `today=true` either); empty for the other kinds',
      }),
  })
  .meta({ description: 'A verdict replayed: `identical`, or the exact differences' });
