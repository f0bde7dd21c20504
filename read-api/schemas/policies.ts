import { z } from 'zod';
import { ALERT_LEVELS } from '../../domain/kyt/alert-level.js';
import { RULE_TYPES } from '../../domain/kyt/policy.types.js';
import { ACTIONS, CATEGORY_LEVELS } from '../../domain/shared/verdict-vocabulary.js';
import { isoTimestamp } from './common.js';

/** Bodies of /v2/policies (read-api/routes/policies-views.ts). */

const actorSchema = z.strictObject({ user_id: z.string(), email: z.string() });

export const policyRuleOut = z.strictObject({
  id: z.string(),
  rule_type: z.enum(RULE_TYPES),
  direction: z.literal('incoming'),
  categories: z.strictObject({ slugs: z.array(z.string()), levels: z.array(z.enum(CATEGORY_LEVELS)) }),
  min_share_percent: z.number(),
  min_usd: z.number(),
  alert_level: z.enum(ALERT_LEVELS),
  action: z.enum(ACTIONS).meta({
    description: 'What an alert of this level recommends (the verdict vocabulary: Severe block, High hold, Medium review, Low alert only)',
  }),
  note: z.string(),
});

const versionOut = z.strictObject({ version: z.string(), name: z.string(), activated_at: isoTimestamp.nullable() });

export const policySummarySchema = z.strictObject({
  id: z.string().meta({ description: '`standard` for the standard policy, else the policy’s id' }),
  subgroup_id: z.string(),
  name: z.string(),
  active: z.boolean().meta({ description: 'Its active_version is what this subgroup’s transfer checks apply now' }),
  active_version: z.string().nullable(),
  latest_version: z.string().nullable(),
  has_draft: z.boolean(),
  based_on: z.strictObject({ policy_id: z.string(), version: z.string() }).nullable(),
});

export const policyListSchema = z.strictObject({ subgroup_id: z.string(), policies: z.array(policySummarySchema) });

export const policyDetailSchema = policySummarySchema.extend({
  draft: z.strictObject({ name: z.string(), rules: z.array(policyRuleOut), updated_at: isoTimestamp }).nullable(),
  version: versionOut
    .extend({ rules: z.array(policyRuleOut) })
    .nullable()
    .meta({ description: 'The version asked for (`?version=`), else the latest; null for a policy never activated' }),
  versions: z.array(versionOut),
});

const historyEntrySchema = z.strictObject({
  action: z.enum(['draft_created', 'draft_edited', 'activated']),
  at: isoTimestamp,
  by: actorSchema,
  reason: z.string(),
  name: z.string(),
  version: z.string().nullable(),
  based_on: z.strictObject({ policy_id: z.string(), version: z.string() }).nullable(),
  rule_count: z.number().int().nullable(),
});

export const policyHistorySchema = z.strictObject({ policy_id: z.string(), subgroup_id: z.string(), history: z.array(historyEntrySchema) });

const levelCounts = z.strictObject(
  Object.fromEntries(ALERT_LEVELS.map((l) => [l, z.number().int()])) as Record<(typeof ALERT_LEVELS)[number], z.ZodNumber>,
);
const tallySchema = z.strictObject({
  alerts: z.number().int(),
  checks_with_alerts: z.number().int(),
  by_level: levelCounts,
  by_rule: z.array(z.strictObject({ rule_id: z.string(), alert_level: z.enum(ALERT_LEVELS), alerts: z.number().int() })),
});
const differenceSchema = z.strictObject({
  new: z.number().int(),
  lost: z.number().int(),
  changed_level: z.number().int(),
  checks_affected: z.number().int(),
});

export const backtestReportSchema = z.strictObject({
  checks: z.number().int().meta({ description: 'Completed transfer checks of the subgroup in the range' }),
  candidate: tallySchema.meta({ description: 'The alerts the backtested policy would raise' }),
  baseline: tallySchema.meta({ description: 'The alerts the subgroup’s active policy raises on the same checks' }),
  raised: tallySchema.meta({ description: 'The alerts the checks raised when they ran' }),
  versus_baseline: differenceSchema,
  versus_raised: differenceSchema,
  analyst_outcomes: z.strictObject({
    flagged: z.number().int(),
    flagged_still_alerted: z.number().int(),
    dismissed: z.number().int(),
    dismissed_no_longer_raised: z.number().int(),
  }),
  examples: z.array(
    z.strictObject({
      check_id: z.string(),
      checked_at: isoTimestamp,
      changes: z.array(
        z.strictObject({
          category_slug: z.string(),
          rule_type: z.enum(RULE_TYPES),
          from_level: z.enum(ALERT_LEVELS).nullable(),
          to_level: z.enum(ALERT_LEVELS).nullable(),
        }),
      ),
    }),
  ),
});

export const backtestSchema = z.strictObject({
  backtest_id: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  subgroup_id: z.string(),
  policy_id: z.string(),
  version: z.string().meta({ description: 'The version backtested, or `draft`' }),
  baseline: z.strictObject({ policy_id: z.string(), version: z.string() }),
  from: isoTimestamp,
  to: isoTimestamp,
  progress: z.strictObject({ checks_read: z.number().int(), checks_estimated: z.number().int() }),
  result_url: z.string(),
  report: backtestReportSchema.nullable(),
  error: z.string().nullable(),
  started_at: isoTimestamp,
  finished_at: isoTimestamp.nullable(),
});
