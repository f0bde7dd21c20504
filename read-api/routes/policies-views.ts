import type { PolicyRule } from '../../domain/kyt/policy.types.js';
import { STANDARD_POLICY } from '../../domain/kyt/standard-policy.js';
import { activePolicyOf, policyOf, versionOf, type PolicyBookState } from '../../domain/policies/policy-book.decider.js';
import { STANDARD_POLICY_ID, type PolicyBookEvent } from '../../domain/policies/policy-book.events.js';
import { actionOf } from '../../domain/shared/verdict-vocabulary.js';
import type { PolicyRuleIn } from './policies-schemas.js';
import type { BacktestJob } from '../../commands/policies/backtest-jobs.js';
import type { BacktestReport, Difference, TallyView } from '../../domain/policies/backtest.js';

/** Policies on the wire (snake_case), from the subgroup's policy book. */

export const ruleOut = (rule: PolicyRule) => ({
  id: rule.id,
  rule_type: rule.ruleType,
  direction: 'incoming' as const,
  categories: { slugs: [...(rule.categories.slugs ?? [])], levels: [...(rule.categories.levels ?? [])] },
  min_share_percent: rule.minSharePercent,
  min_usd: rule.minUsd,
  alert_level: rule.level,
  action: actionOf(rule.level),
  note: rule.note,
});

export const ruleIn = (rule: PolicyRuleIn): PolicyRule => ({
  id: rule.id,
  ruleType: rule.rule_type,
  categories: {
    ...(rule.categories.slugs ? { slugs: rule.categories.slugs } : {}),
    ...(rule.categories.levels ? { levels: rule.categories.levels } : {}),
  },
  minSharePercent: rule.min_share_percent,
  minUsd: rule.min_usd,
  level: rule.alert_level,
  note: rule.note ?? '',
});

export function policySummary(book: PolicyBookState, subgroupId: string, policyId: string) {
  const active = activePolicyOf(book);
  const isActive = active.policyId === policyId;
  if (policyId === STANDARD_POLICY_ID) {
    return {
      id: STANDARD_POLICY_ID,
      subgroup_id: subgroupId,
      name: STANDARD_POLICY.name,
      active: isActive,
      active_version: isActive ? STANDARD_POLICY.version : null,
      latest_version: STANDARD_POLICY.version,
      has_draft: false,
      based_on: null,
    };
  }
  const policy = policyOf(book, policyId);
  const latest = policy?.versions.at(-1) ?? null;
  return {
    id: policyId,
    subgroup_id: subgroupId,
    name: policy?.draft?.name ?? latest?.name ?? '',
    active: isActive,
    active_version: isActive ? active.policy.version : null,
    latest_version: latest?.version ?? null,
    has_draft: policy?.draft != null,
    based_on: policy ? { policy_id: policy.basedOn.policyId, version: policy.basedOn.version } : null,
  };
}

export function policyList(book: PolicyBookState, subgroupId: string) {
  return {
    subgroup_id: subgroupId,
    policies: [STANDARD_POLICY_ID, ...book.policies.map((p) => p.policyId)].map((id) => policySummary(book, subgroupId, id)),
  };
}

export function policyDetail(book: PolicyBookState, subgroupId: string, policyId: string, version: string | undefined) {
  const summary = policySummary(book, subgroupId, policyId);
  const policy = policyOf(book, policyId);
  const shown = versionOf(book, policyId, version);
  const versions =
    policyId === STANDARD_POLICY_ID
      ? [{ version: STANDARD_POLICY.version, name: STANDARD_POLICY.name, activated_at: null }]
      : (policy?.versions ?? []).map((v) => ({ version: v.version, name: v.name, activated_at: v.at }));
  return {
    ...summary,
    draft: policy?.draft ? { name: policy.draft.name, rules: policy.draft.rules.map(ruleOut), updated_at: policy.draft.at } : null,
    version: shown ? { version: shown.version, name: shown.name, activated_at: shown.at || null, rules: shown.rules.map(ruleOut) } : null,
    versions,
  };
}

export function historyEntry(event: PolicyBookEvent) {
  const common = { at: event.data.at, by: { user_id: event.data.by.userId, email: event.data.by.email }, reason: event.data.reason };
  switch (event.type) {
    case 'PolicyDraftCreated':
      return {
        action: 'draft_created' as const,
        ...common,
        name: event.data.name,
        version: null,
        based_on: { policy_id: event.data.basedOn.policyId, version: event.data.basedOn.version },
        rule_count: event.data.rules.length,
      };
    case 'PolicyDraftEdited':
      return {
        action: 'draft_edited' as const,
        ...common,
        name: event.data.name,
        version: null,
        based_on: null,
        rule_count: event.data.rules.length,
      };
    case 'PolicyActivated':
      return {
        action: 'activated' as const,
        ...common,
        name: event.data.name,
        version: event.data.version,
        based_on: null,
        rule_count: event.data.rules?.length ?? null,
      };
  }
}

const tallyOut = (t: TallyView) => ({
  alerts: t.alerts,
  checks_with_alerts: t.checksWithAlerts,
  by_level: { ...t.byLevel },
  by_rule: t.byRule.map((r) => ({ rule_id: r.ruleId, alert_level: r.level, alerts: r.alerts })),
});
const differenceOut = (d: Difference) => ({ new: d.new, lost: d.lost, changed_level: d.changedLevel, checks_affected: d.checksAffected });

export const backtestReportOut = (r: BacktestReport) => ({
  checks: r.checks,
  candidate: tallyOut(r.candidate),
  baseline: tallyOut(r.baseline),
  raised: tallyOut(r.raised),
  versus_baseline: differenceOut(r.versusBaseline),
  versus_raised: differenceOut(r.versusRaised),
  analyst_outcomes: {
    flagged: r.analystOutcomes.flagged,
    flagged_still_alerted: r.analystOutcomes.flaggedStillAlerted,
    dismissed: r.analystOutcomes.dismissed,
    dismissed_no_longer_raised: r.analystOutcomes.dismissedNoLongerRaised,
  },
  examples: r.examples.map((e) => ({
    check_id: e.checkId,
    checked_at: e.checkedAt,
    changes: e.changes.map((c) => ({ category_slug: c.slug, rule_type: c.ruleType, from_level: c.from, to_level: c.to })),
  })),
});

export const backtestOut = (job: BacktestJob) => ({
  backtest_id: job.id,
  status: job.status,
  subgroup_id: job.request.subgroupId,
  policy_id: job.request.policyId,
  version: job.request.candidate.version,
  baseline: { policy_id: job.request.baseline.policyId, version: job.request.baseline.policy.version },
  from: job.request.from,
  to: job.request.to,
  progress: { checks_read: job.checksRead, checks_estimated: Math.max(job.checksEstimated, job.checksRead) },
  result_url: `/v2/policies/backtests/${job.id}`,
  report: job.report ? backtestReportOut(job.report) : null,
  error: job.error,
  started_at: job.startedAt,
  finished_at: job.finishedAt,
});
