/**
 * The one vocabulary of verdict levels (docs/api.md, "One vocabulary"). Each row is one step of one
 * scale, named in every scale the service speaks: the address verdicts' `risk_level` (screen, full check,
 * explore, monitors, inspect), the taxonomy's category levels and severities, the transfer check's
 * alert levels and actions and its composite's level, the full check's `decision`, and the
 * `service.check.high_risk` webhook's level. Every presenter, page and webhook takes its words from here,
 * and a test holds every body and page to it.
 *
 * Two spec words name the same step: `critical` (an address verdict) and `Severe` (an alert, a category
 * level), and `severe` in the high-risk webhook. Exposure alone never goes past `high` (sanctions are
 * not transitive), in the full check, explore and the transfer check's composite alike.
 */

export const RISK_LEVELS = ['none', 'low', 'medium', 'high', 'critical', 'sanctioned'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const CATEGORY_LEVELS = ['info', 'low', 'medium', 'high', 'severe'] as const;
export type CategoryLevel = (typeof CATEGORY_LEVELS)[number];

/** The spec's alert levels (tx.policy.alert.triggered), lowest first. */
export const ALERT_LEVELS = ['Low', 'Medium', 'High', 'Severe'] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];

export const COMPOSITE_LEVELS = ['none', 'low', 'medium', 'high', 'severe'] as const;
export type CompositeLevel = (typeof COMPOSITE_LEVELS)[number];

export const ACTIONS = ['accept', 'review', 'hold', 'block'] as const;
export type Action = (typeof ACTIONS)[number];

export const DECISIONS = ['accept', 'review', 'reject', 'unable'] as const;
export type Decision = (typeof DECISIONS)[number];

export const HIGH_RISK_LEVELS = ['high', 'severe'] as const;
export type HighRiskLevel = (typeof HIGH_RISK_LEVELS)[number];

/** The multi-provider inspect's final audit: can the address be dealt with. */
export const INSPECT_DECISIONS = ['deal', 'review', 'do_not_deal'] as const;
export type InspectDecision = (typeof INSPECT_DECISIONS)[number];

export interface VocabularyRow {
  readonly riskLevel: RiskLevel;
  readonly categoryLevel: CategoryLevel;
  /** Taxonomy severities of the step (a composite score is on the same 0..10 scale). */
  readonly severity: readonly [number, number];
  readonly alertLevel: AlertLevel | null;
  readonly compositeLevel: CompositeLevel;
  /** A transfer check's recommended action when its worst alert is at this step. */
  readonly action: Action;
  /** The full check's decision when the address ITSELF is at this step. */
  readonly decision: Decision;
  /** …and when only its exposure is (exposure never rejects: sanctions are not transitive). */
  readonly exposureDecision: Decision;
  readonly highRiskLevel: HighRiskLevel | null;
  /** The inspect's audit when the providers agree on this step (one sanctions designation is enough to refuse). */
  readonly inspectDecision: InspectDecision;
  /** How pages colour it. */
  readonly tone: 'ok' | 'off' | 'warn' | 'bad';
  readonly meaning: string;
}

export const VERDICT_VOCABULARY: readonly VocabularyRow[] = [
  {
    riskLevel: 'none',
    categoryLevel: 'info',
    severity: [0, 0],
    alertLevel: null,
    compositeLevel: 'none',
    action: 'accept',
    decision: 'accept',
    exposureDecision: 'accept',
    highRiskLevel: null,
    inspectDecision: 'deal',
    tone: 'ok',
    meaning: 'no risk signal was found: not "clean" (with data_available false nothing is known: decision unable)',
  },
  {
    riskLevel: 'low',
    categoryLevel: 'low',
    severity: [1, 3],
    alertLevel: 'Low',
    compositeLevel: 'low',
    action: 'accept',
    decision: 'accept',
    exposureDecision: 'accept',
    highRiskLevel: null,
    inspectDecision: 'deal',
    tone: 'off',
    meaning: 'services and low-risk categories (exchanges, bridges, ATMs); an alert at this step is for the record',
  },
  {
    riskLevel: 'medium',
    categoryLevel: 'medium',
    severity: [4, 6],
    alertLevel: 'Medium',
    compositeLevel: 'medium',
    action: 'review',
    decision: 'review',
    exposureDecision: 'review',
    highRiskLevel: null,
    inspectDecision: 'review',
    tone: 'warn',
    meaning: 'mixers, unlicensed gambling, no-KYC exchanges: an analyst reviews',
  },
  {
    riskLevel: 'high',
    categoryLevel: 'high',
    severity: [7, 8],
    alertLevel: 'High',
    compositeLevel: 'high',
    action: 'hold',
    decision: 'reject',
    exposureDecision: 'review',
    highRiskLevel: 'high',
    inspectDecision: 'do_not_deal',
    tone: 'bad',
    meaning: 'stolen funds, scams, phishing, darknet markets; the highest step exposure alone reaches',
  },
  {
    riskLevel: 'critical',
    categoryLevel: 'severe',
    severity: [9, 10],
    alertLevel: 'Severe',
    compositeLevel: 'severe',
    action: 'block',
    decision: 'reject',
    exposureDecision: 'review',
    highRiskLevel: 'severe',
    inspectDecision: 'do_not_deal',
    tone: 'bad',
    meaning: 'the address itself is in a severe category (terrorist financing, ransomware, sanctioned jurisdiction)',
  },
  {
    riskLevel: 'sanctioned',
    categoryLevel: 'severe',
    severity: [10, 10],
    alertLevel: 'Severe',
    compositeLevel: 'severe',
    action: 'block',
    decision: 'reject',
    exposureDecision: 'review',
    highRiskLevel: 'severe',
    inspectDecision: 'do_not_deal',
    tone: 'bad',
    meaning: 'a sanctions list names the address itself',
  },
];

/** The highest step exposure alone reaches, in every product: sanctions are not transitive. */
export const EXPOSURE_CEILING: RiskLevel = 'high';
/** …and the highest severity it carries into a severity-weighted score (the transfer check's composite): 8. */
export const EXPOSURE_SEVERITY_CEILING = 8;

/** `unable`: nothing is known of the address (no intelligence, no transfer history): unknown, not clean. */
export const UNKNOWN_DECISION: Decision = 'unable';

const rowOf = <K extends keyof VocabularyRow>(key: K, value: VocabularyRow[K]): VocabularyRow | undefined =>
  VERDICT_VOCABULARY.find((row) => row[key] === value);

const must = (row: VocabularyRow | undefined, what: string): VocabularyRow => {
  if (!row) throw new Error(`not in the verdict vocabulary: ${what}`);
  return row;
};

export const rowOfRisk = (level: RiskLevel): VocabularyRow => must(rowOf('riskLevel', level), level);

export const rankOfRisk = (level: RiskLevel): number => RISK_LEVELS.indexOf(level);

/** A taxonomy category's own level on the address scale: severe → critical, info → none. */
export const riskOfCategoryLevel = (level: CategoryLevel): RiskLevel => must(rowOf('categoryLevel', level), level).riskLevel;

/** The step of a 0..10 severity score (the transfer check's composite): ≥ 9 severe, ≥ 7 high, ≥ 4 medium, > 0 low. */
export function compositeLevelOf(score: number): CompositeLevel {
  if (score <= 0) return 'none';
  const row = [...VERDICT_VOCABULARY].reverse().find((r) => score >= r.severity[0] && r.severity[0] > 0);
  return row?.compositeLevel ?? 'low';
}

/** The recommended action of a transfer check whose worst alert is `worst` (no alert: accept). */
export const actionOf = (worst: AlertLevel | null): Action => (worst === null ? 'accept' : must(rowOf('alertLevel', worst), worst).action);

/** The high-risk webhook's level of an address level, null below high. */
export const highRiskLevelOf = (level: RiskLevel): HighRiskLevel | null => rowOfRisk(level).highRiskLevel;

const DECISION_ORDER: readonly Decision[] = ['accept', 'review', 'reject'];

/** The full check's decision from the address's own level and the level with its exposure (known data only). */
export function decisionOf(own: RiskLevel, withExposure: RiskLevel): Decision {
  const a = rowOfRisk(own).decision;
  const b = rowOfRisk(withExposure).exposureDecision;
  return DECISION_ORDER.indexOf(a) >= DECISION_ORDER.indexOf(b) ? a : b;
}

/** The page tone of any word of the vocabulary (alert and category words too). */
export function toneOf(word: string): VocabularyRow['tone'] | null {
  const row = VERDICT_VOCABULARY.find(
    (r) => r.riskLevel === word || r.alertLevel === word || r.compositeLevel === word || r.categoryLevel === word,
  );
  return row?.tone ?? null;
}

/** Parses any case of a word of `scale` ('severe', 'SEVERE' → 'Severe'); null when it is none of them. */
export function parseWord<W extends string>(scale: readonly W[], input: string): W | null {
  const wanted = input.trim().toLowerCase();
  return scale.find((word) => word.toLowerCase() === wanted) ?? null;
}
