import { z } from 'zod';
import { ALERT_LEVELS } from '../../domain/kyt/alert-level.js';
import { RULE_TYPES } from '../../domain/kyt/policy.types.js';
import { MAX_NAME_LENGTH, MAX_NOTE_LENGTH, MAX_REASON_LENGTH, MAX_RULES } from '../../domain/policies/policy-rules.js';
import { CATEGORY_LEVELS } from '../../domain/shared/verdict-vocabulary.js';
import { anyCaseEnum } from '../schemas/common.js';

/**
 * Request shapes of /v2/policies. The shapes are checked here; what needs the taxonomy and the policy's
 * history (known categories, thresholds in range, unique rule ids, a version to activate) is checked by
 * the policy decider, reported the same way (422, detail[] naming the field).
 */

const subgroupId = z
  .string()
  .max(100)
  .optional()
  .meta({ description: 'One of your subgroups (default: your first, as transfer checks use)' });

export const policyListQuery = z.strictObject({ subgroup_id: subgroupId });
export const policyParams = z.object({ id: z.string().max(100) });
export const policyGetQuery = z.strictObject({ subgroup_id: subgroupId, version: z.string().max(20).optional() });

export const policyRuleIn = z.strictObject({
  id: z.string().max(16),
  rule_type: anyCaseEnum(RULE_TYPES),
  direction: z.literal('incoming').optional().meta({ description: 'Rules apply to incoming transfers (the only direction checked today)' }),
  categories: z.strictObject({
    slugs: z.array(z.string().max(64)).max(100).optional(),
    levels: z.array(anyCaseEnum(CATEGORY_LEVELS)).max(CATEGORY_LEVELS.length).optional(),
  }),
  min_share_percent: z.number().min(0).max(100),
  min_usd: z.number().min(0),
  alert_level: anyCaseEnum(ALERT_LEVELS),
  note: z.string().max(MAX_NOTE_LENGTH).optional(),
});
export type PolicyRuleIn = z.infer<typeof policyRuleIn>;

const reason = z.string().min(1).max(MAX_REASON_LENGTH).meta({ description: 'Why: kept with the change in the policy’s history' });
const rules = z.array(policyRuleIn).min(1).max(MAX_RULES);

export const createPolicyBody = z.strictObject({
  subgroup_id: subgroupId,
  name: z.string().min(1).max(MAX_NAME_LENGTH),
  reason,
  based_on: z
    .strictObject({ policy_id: z.string().max(100), version: z.string().max(20).optional() })
    .optional()
    .meta({ description: 'The policy (and version, default its latest) the draft starts from; default the standard policy' }),
  rules: rules.optional().meta({ description: 'The draft’s rules; default those of based_on' }),
});
export type CreatePolicyBody = z.infer<typeof createPolicyBody>;

export const editPolicyBody = z.strictObject({
  name: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
  reason,
  rules: rules.optional(),
});
export type EditPolicyBody = z.infer<typeof editPolicyBody>;

export const activatePolicyBody = z.strictObject({
  subgroup_id: subgroupId,
  reason,
  version: z
    .string()
    .max(20)
    .optional()
    .meta({ description: 'An earlier version to activate again; default the draft, as the next version' }),
});
export type ActivatePolicyBody = z.infer<typeof activatePolicyBody>;

export const backtestBody = z.strictObject({
  subgroup_id: subgroupId,
  from: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional()
    .meta({ description: 'Start of the range (checked_at, inclusive); default 30 days before `to`' }),
  to: z.iso
    .date()
    .or(z.iso.datetime({ offset: true }))
    .optional()
    .meta({ description: 'End of the range (exclusive); default now' }),
  version: z.string().max(20).optional().meta({ description: 'A version of the policy; default its draft, else its latest version' }),
  wait_ms: z
    .number()
    .int()
    .min(0)
    .max(25_000)
    .default(10_000)
    .meta({ description: 'How long to wait for the report before answering 202 with the result URL' }),
});
export type BacktestBody = z.infer<typeof backtestBody>;
export const backtestParams = z.object({ backtest_id: z.string().max(100) });
