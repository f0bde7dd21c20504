import { ALERT_LEVELS, type AlertLevel } from '../kyt/alert-level.js';
import { evaluateFacts, type PolicyFact } from '../kyt/policy-engine.js';
import type { Policy, RuleType } from '../kyt/policy.types.js';
import type { CloseReason } from '../alerts/alert-case.events.js';

/**
 * A backtest: a candidate policy applied to a subgroup's recorded transfer checks, one at a time, as a
 * fold whose state is counters (by rule, by level, the differences, the analysts' outcomes) and a
 * bounded list of example checks: memory does not grow with the number of checks.
 *
 * An alert is identified within its check by its rule type and category (a policy raises at most one per
 * pair). The candidate is compared with the baseline (the subgroup's active policy applied to the same
 * facts: new, lost, changed level) and with what was raised when the checks ran.
 */

/** An alert a check raised when it ran, as recorded. */
export interface RaisedAlert {
  readonly ruleId: string;
  readonly slug: string;
  readonly ruleType: RuleType;
  readonly level: AlertLevel;
}

export interface RecordedCheck {
  readonly checkId: string;
  readonly checkedAt: string;
  readonly facts: readonly PolicyFact[];
  readonly raised: readonly RaisedAlert[];
}

/** How analysts closed the case of the `alertIndex`-th raised alert of a check. */
export interface CaseOutcome {
  readonly alertIndex: number;
  readonly reason: CloseReason;
}

/** How many example checks a report lists (the ones the candidate changes most). */
export const MAX_EXAMPLES = 100;

interface Tally {
  total: number;
  checks: number;
  byLevel: Record<AlertLevel, number>;
  byRule: Map<string, { ruleId: string; level: AlertLevel; alerts: number }>;
}

export interface AlertChange {
  readonly slug: string;
  readonly ruleType: RuleType;
  readonly from: AlertLevel | null;
  readonly to: AlertLevel | null;
}

export interface Difference {
  new: number;
  lost: number;
  changedLevel: number;
  checksAffected: number;
}

export interface BacktestReport {
  readonly checks: number;
  readonly candidate: TallyView;
  readonly baseline: TallyView;
  readonly raised: TallyView;
  readonly versusBaseline: Difference;
  readonly versusRaised: Difference;
  readonly analystOutcomes: { flagged: number; flaggedStillAlerted: number; dismissed: number; dismissedNoLongerRaised: number };
  /** Checks whose alerts the candidate changes against the baseline, at most MAX_EXAMPLES, earliest first. */
  readonly examples: readonly { checkId: string; checkedAt: string; changes: readonly AlertChange[] }[];
}

export interface TallyView {
  readonly alerts: number;
  readonly checksWithAlerts: number;
  readonly byLevel: Readonly<Record<AlertLevel, number>>;
  readonly byRule: readonly { ruleId: string; level: AlertLevel; alerts: number }[];
}

const newTally = (): Tally => ({
  total: 0,
  checks: 0,
  byLevel: Object.fromEntries(ALERT_LEVELS.map((l) => [l, 0])) as Record<AlertLevel, number>,
  byRule: new Map(),
});

type Keyed = Map<string, { ruleId: string; level: AlertLevel }>;
const keyOf = (ruleType: RuleType, slug: string) => `${ruleType}|${slug}`;

function count(tally: Tally, alerts: Keyed): void {
  if (alerts.size > 0) tally.checks += 1;
  for (const { ruleId, level } of alerts.values()) {
    tally.total += 1;
    tally.byLevel[level] += 1;
    const key = `${ruleId}|${level}`;
    const entry = tally.byRule.get(key) ?? { ruleId, level, alerts: 0 };
    entry.alerts += 1;
    tally.byRule.set(key, entry);
  }
}

function judged(policy: Policy, facts: readonly PolicyFact[]): Keyed {
  const outcome = evaluateFacts(policy, facts);
  const keyed: Keyed = new Map();
  outcome.alerts.forEach((alert, i) => {
    const match = outcome.matches[i];
    if (match) keyed.set(keyOf(alert.ruleType, match.categorySlug), { ruleId: match.ruleId, level: alert.riskLevel });
  });
  return keyed;
}

function compare(before: Keyed, after: Keyed): AlertChange[] {
  const changes: AlertChange[] = [];
  for (const [key, now] of after) {
    const was = before.get(key);
    if (!was || was.level !== now.level) changes.push({ ...split(key), from: was?.level ?? null, to: now.level });
  }
  for (const [key, was] of before) if (!after.has(key)) changes.push({ ...split(key), from: was.level, to: null });
  return changes;
}

const split = (key: string): { ruleType: RuleType; slug: string } => {
  const at = key.indexOf('|');
  return { ruleType: key.slice(0, at) as RuleType, slug: key.slice(at + 1) };
};

function tallyChanges(into: Difference, changes: readonly AlertChange[]): void {
  if (changes.length > 0) into.checksAffected += 1;
  for (const change of changes) {
    if (change.from === null) into.new += 1;
    else if (change.to === null) into.lost += 1;
    else into.changedLevel += 1;
  }
}

const view = (tally: Tally): TallyView => ({
  alerts: tally.total,
  checksWithAlerts: tally.checks,
  byLevel: { ...tally.byLevel },
  byRule: [...tally.byRule.values()].sort(
    (a, b) => (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) || ALERT_LEVELS.indexOf(a.level) - ALERT_LEVELS.indexOf(b.level),
  ),
});

const noDifference = (): Difference => ({ new: 0, lost: 0, changedLevel: 0, checksAffected: 0 });

export function startBacktest(candidate: Policy, baseline: Policy) {
  let checks = 0;
  const tallies = { candidate: newTally(), baseline: newTally(), raised: newTally() };
  const versusBaseline = noDifference();
  const versusRaised = noDifference();
  const analystOutcomes = { flagged: 0, flaggedStillAlerted: 0, dismissed: 0, dismissedNoLongerRaised: 0 };
  const examples: { checkId: string; checkedAt: string; changes: AlertChange[] }[] = [];
  return {
    add(check: RecordedCheck, outcomes: readonly CaseOutcome[]): void {
      checks += 1;
      const proposed = judged(candidate, check.facts);
      const current = judged(baseline, check.facts);
      const raised: Keyed = new Map(check.raised.map((a) => [keyOf(a.ruleType, a.slug), { ruleId: a.ruleId, level: a.level }]));
      count(tallies.candidate, proposed);
      count(tallies.baseline, current);
      count(tallies.raised, raised);
      const changes = compare(current, proposed);
      tallyChanges(versusBaseline, changes);
      tallyChanges(versusRaised, compare(raised, proposed));
      if (changes.length > 0 && examples.length < MAX_EXAMPLES)
        examples.push({ checkId: check.checkId, checkedAt: check.checkedAt, changes });
      for (const outcome of outcomes) {
        const alert = check.raised[outcome.alertIndex];
        if (!alert) continue;
        const stillAlerted = proposed.has(keyOf(alert.ruleType, alert.slug));
        if (outcome.reason === 'flagged') {
          analystOutcomes.flagged += 1;
          if (stillAlerted) analystOutcomes.flaggedStillAlerted += 1;
        } else if (outcome.reason === 'dismissed') {
          analystOutcomes.dismissed += 1;
          if (!stillAlerted) analystOutcomes.dismissedNoLongerRaised += 1;
        }
      }
    },
    report(): BacktestReport {
      return {
        checks,
        candidate: view(tallies.candidate),
        baseline: view(tallies.baseline),
        raised: view(tallies.raised),
        versusBaseline: { ...versusBaseline },
        versusRaised: { ...versusRaised },
        analystOutcomes: { ...analystOutcomes },
        examples: examples.map((e) => ({ ...e, changes: [...e.changes] })),
      };
    },
  };
}
