import type { CategoryLevel } from '../intel/taxonomy.js';
import type { AlertLevel } from './alert-level.js';

export const RULE_TYPES = ['Direct exposure', 'Origin of funds / Indirect', 'Pattern'] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/**
 * One rule of a policy. It matches a category when the category is covered (listed by slug, or of a
 * listed taxonomy level), its share of the composite is at least `minSharePercent` (0: any exposure
 * at all) and its USD value at least `minUsd`. Rules are data: a policy is versioned as a whole and
 * every result names the version that judged it.
 */
export interface PolicyRule {
  readonly id: string;
  readonly ruleType: RuleType;
  readonly categories: { readonly slugs?: readonly string[]; readonly levels?: readonly CategoryLevel[] };
  readonly minSharePercent: number;
  /** Whole or fractional USD. */
  readonly minUsd: number;
  readonly level: AlertLevel;
  /** What the rule stands for and which incumbent practice it mirrors. */
  readonly note: string;
}

export interface Policy {
  readonly name: string;
  readonly version: string;
  /** The taxonomy version its category levels refer to. */
  readonly taxonomyVersion: string;
  readonly rules: readonly PolicyRule[];
}
