import { z } from 'zod';
import { categoryOf, type Taxonomy } from '../intel/taxonomy.js';
import { ALERT_LEVELS } from '../kyt/alert-level.js';
import { RULE_TYPES, type PolicyRule } from '../kyt/policy.types.js';
import { CATEGORY_LEVELS } from '../shared/verdict-vocabulary.js';

/** Bounds of one policy: a team tunes a few dozen rules, never thousands (the decider's state stays small). */
export const MAX_RULES = 100;
export const MAX_NAME_LENGTH = 80;
export const MAX_REASON_LENGTH = 2000;
export const MAX_NOTE_LENGTH = 500;
export const MAX_RULE_ID_LENGTH = 16;
/** The largest USD threshold a rule may name (a trillion dollars: beyond it a rule could never fire). */
export const MAX_USD_THRESHOLD = 1e12;

/** A rule as stored in policy events: the engine's PolicyRule (domain/kyt/policy.types.ts), checked. */
export const policyRuleSchema = z.object({
  id: z.string(),
  ruleType: z.enum(RULE_TYPES),
  categories: z.object({
    slugs: z.array(z.string()).readonly().optional(),
    levels: z.array(z.enum(CATEGORY_LEVELS)).readonly().optional(),
  }),
  minSharePercent: z.number(),
  minUsd: z.number(),
  level: z.enum(ALERT_LEVELS),
  note: z.string(),
});

/** One refusal of a rule list, naming the field at fault (`rules.3.min_usd`), as the 422's detail[] does. */
export interface RuleIssue {
  readonly field: string;
  readonly message: string;
}

const ID_PATTERN = /^[A-Za-z0-9_.]+$/;

function ruleIssues(rule: PolicyRule, index: number, taxonomy: Taxonomy, seen: Set<string>): RuleIssue[] {
  const at = (field: string) => `rules.${index}.${field}`;
  const issues: RuleIssue[] = [];
  if (rule.id.length === 0 || rule.id.length > MAX_RULE_ID_LENGTH || !ID_PATTERN.test(rule.id))
    issues.push({ field: at('id'), message: `a rule id is 1 to ${MAX_RULE_ID_LENGTH} letters, digits, '_' or '.'` });
  else if (seen.has(rule.id)) issues.push({ field: at('id'), message: `rule id ${rule.id} is used twice` });
  seen.add(rule.id);
  const slugs = rule.categories.slugs ?? [];
  const levels = rule.categories.levels ?? [];
  if (slugs.length + levels.length === 0)
    issues.push({ field: at('categories'), message: 'a rule covers at least one category slug or category level' });
  slugs.forEach((slug, i) => {
    if (!categoryOf(taxonomy, slug))
      issues.push({ field: `${at('categories')}.slugs.${i}`, message: `unknown category ${slug} (taxonomy ${taxonomy.version})` });
  });
  if (!Number.isFinite(rule.minSharePercent) || rule.minSharePercent < 0 || rule.minSharePercent > 100)
    issues.push({ field: at('min_share_percent'), message: 'the share threshold is a percentage from 0 to 100' });
  if (!Number.isFinite(rule.minUsd) || rule.minUsd < 0 || rule.minUsd > MAX_USD_THRESHOLD)
    issues.push({ field: at('min_usd'), message: `the USD threshold is from 0 to ${MAX_USD_THRESHOLD}` });
  if (rule.note.length > MAX_NOTE_LENGTH)
    issues.push({ field: at('note'), message: `a rule's note is at most ${MAX_NOTE_LENGTH} characters` });
  return issues;
}

/** Every issue of a rule list: empty, when the policy may be saved. */
export function validateRules(rules: readonly PolicyRule[], taxonomy: Taxonomy): RuleIssue[] {
  if (rules.length === 0) return [{ field: 'rules', message: 'a policy has at least one rule' }];
  if (rules.length > MAX_RULES) return [{ field: 'rules', message: `a policy has at most ${MAX_RULES} rules` }];
  const seen = new Set<string>();
  return rules.flatMap((rule, index) => ruleIssues(rule, index, taxonomy, seen));
}
