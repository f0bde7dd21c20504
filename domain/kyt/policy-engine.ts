import { present } from '../shared/present.js';
import { categoryOf, type CategoryLevel, type Taxonomy } from '../intel/taxonomy.js';
import { alertRank, worstLevel, type AlertLevel } from './alert-level.js';
import type { Anchor, Composite } from './composite.js';
import type { Policy, PolicyRule, RuleType } from './policy.types.js';
import type { PatternFinding } from './transfer-patterns.js';

/** An alert exactly in the spec's shape (Events → tx.policy.alert.triggered → Alert fields). */
export interface PolicyAlert {
  readonly category: string;
  readonly riskLevel: AlertLevel;
  readonly ruleType: RuleType;
  /** Percent of the USD-weighted composite in this category, two decimals. */
  readonly actualShare: number;
  readonly thresholdShare: number;
  readonly thresholdValue: number;
  readonly entityName: string | null;
  readonly entityAddress: string | null;
  readonly direction: 'incoming';
  readonly entityScore: number;
}

/** Why an alert fired, index-aligned with the alerts. */
export interface RuleMatch {
  readonly ruleId: string;
  readonly categorySlug: string;
  readonly exposureUsdMicros: number;
  readonly note: string;
  /** The senders whose exposure the alert rests on, the most USD first (a pattern: its anchor). */
  readonly senders: readonly string[];
}

export interface PolicyOutcome {
  readonly alerts: readonly PolicyAlert[];
  readonly matches: readonly RuleMatch[];
  readonly worstLevel: AlertLevel | null;
}

/**
 * One category's exposure of one kind, as the rules of that kind see it: what a policy is applied to.
 * A completed check records its facts, so any policy can be applied to it again without the chain.
 */
export interface PolicyFact {
  readonly ruleType: RuleType;
  readonly slug: string;
  readonly displayName: string;
  readonly level: CategoryLevel;
  /** 0..1 of the composite. */
  readonly share: number;
  readonly usdMicros: number;
  readonly entityName: string | null;
  readonly anchor: Anchor;
  readonly senders: readonly string[];
}
type Fact = PolicyFact;

const covers = (rule: PolicyRule, fact: Fact): boolean =>
  (rule.categories.slugs?.includes(fact.slug) ?? false) || (rule.categories.levels?.includes(fact.level) ?? false);

/** Shares are compared in whole hundredths of a percent, as they are shown. */
const percent = (share: number): number => Math.round(share * 10_000) / 100;

const matches = (rule: PolicyRule, fact: Fact): boolean =>
  rule.ruleType === fact.ruleType &&
  covers(rule, fact) &&
  percent(fact.share) >= rule.minSharePercent &&
  fact.usdMicros >= Math.round(rule.minUsd * 1_000_000);

export function factsOf(composite: Composite, patterns: readonly PatternFinding[], taxonomy: Taxonomy): Fact[] {
  const facts: Fact[] = [];
  for (const category of composite.categories) {
    const base = { slug: category.slug, displayName: category.displayName, level: category.level };
    if (category.direct) {
      const { share, usdMicros, anchor, senders } = category.direct;
      facts.push({ ...base, ruleType: 'Direct exposure', share, usdMicros, anchor, senders, entityName: anchor.label });
    }
    if (category.indirect) {
      const { share, usdMicros, anchor, senders } = category.indirect;
      const entityName = `Sender ${anchor.label ?? anchor.address} (exposed to ${category.displayName})`;
      facts.push({ ...base, ruleType: 'Origin of funds / Indirect', share, usdMicros, anchor, senders, entityName });
    }
  }
  for (const finding of patterns) {
    const definition = categoryOf(taxonomy, finding.slug);
    if (!definition) continue;
    const { share, usdMicros, anchor } = finding;
    facts.push({
      ruleType: 'Pattern',
      slug: finding.slug,
      displayName: definition.displayName,
      level: definition.level,
      share,
      usdMicros,
      anchor,
      senders: [anchor.address],
      entityName: anchor.label,
    });
  }
  return facts;
}

/**
 * Applies a policy: for each fact (a category's direct or indirect exposure, or a pattern), the first
 * rule of the same type that matches it raises one alert. Alerts come worst level first, then in rule
 * order.
 */
export function evaluatePolicy(
  policy: Policy,
  composite: Composite,
  patterns: readonly PatternFinding[],
  taxonomy: Taxonomy,
): PolicyOutcome {
  return evaluateFacts(policy, factsOf(composite, patterns, taxonomy));
}

/** The policy applied to recorded facts: the same outcome as when they were first judged. */
export function evaluateFacts(policy: Policy, facts: readonly PolicyFact[]): PolicyOutcome {
  const fired: { rule: PolicyRule; order: number; fact: Fact }[] = [];
  for (const fact of facts) {
    const order = policy.rules.findIndex((rule) => matches(rule, fact));
    if (order >= 0) fired.push({ rule: present(policy.rules[order], 'order is the index of a rule of this policy'), order, fact });
  }
  fired.sort((a, b) => alertRank(b.rule.level) - alertRank(a.rule.level) || a.order - b.order || (a.fact.slug < b.fact.slug ? -1 : 1));
  const alerts = fired.map(({ rule, fact }): PolicyAlert => ({
    category: fact.displayName,
    riskLevel: rule.level,
    ruleType: rule.ruleType,
    actualShare: percent(fact.share),
    thresholdShare: rule.minSharePercent,
    thresholdValue: rule.minUsd,
    entityName: fact.entityName,
    entityAddress: fact.anchor.address,
    direction: 'incoming',
    entityScore: 0,
  }));
  return {
    alerts,
    matches: fired.map(({ rule, fact }) => ({
      ruleId: rule.id,
      categorySlug: fact.slug,
      exposureUsdMicros: fact.usdMicros,
      note: rule.note,
      senders: fact.senders,
    })),
    worstLevel: worstLevel(alerts.map((a) => a.riskLevel)),
  };
}
