import type { CategoryExposure, ExposureResult } from '../exposure/exposure.schema.js';
import { RISK_SEVERITY_FLOOR } from '../exposure/node-label.js';
import type { RiskLevel } from '../intel/taxonomy.js';
import { usdToMicros } from '../shared/money.js';
import type { Tier } from './tier-outcome.schema.js';
import { RISK_LEVELS, rankOfRisk } from '../shared/verdict-vocabulary.js';

/**
 * How exposure raises the verdict (documented in docs/api.md, "The verdict rule").
 *
 * Only risk categories count (severity ≥ 4: mixers, gambling, scams, stolen funds, sanctions…); services
 * such as exchanges are reported, never risk. A category's `weightedShare` (its share of the address's
 * flow in one direction, halved per hop beyond the first) gives the level:
 *
 * | category severity | high at | medium at | otherwise |
 * |---|---|---|---|
 * | severe (9–10: sanctions, terrorist financing, ransomware…) | ≥ 1 % | any | — |
 * | high (7–8: stolen funds, scam, phishing, darknet…) | ≥ 10 % | ≥ 1 % | low |
 * | medium (4–6: mixer, gambling, no-KYC exchange…) | — | ≥ 25 % | low |
 *
 * Paying a severe entity directly (outgoing, one hop) is high whatever the share: it is the address's own
 * act. Dust is ignored: a category whose USD in that direction is below 100 USD does not count (anyone can
 * send dust from a sanctioned address to anyone: "Tornado dusting"). Exposure alone never reaches
 * `critical` or `sanctioned`: sanctions are not transitive; those levels come from the address itself.
 */

export const DUST_FLOOR_MICROS = usdToMicros(100);

export type Direction = 'incoming' | 'outgoing';

export interface ExposureFinding {
  readonly tier: Tier;
  readonly direction: Direction;
  readonly relation: 'direct' | 'indirect';
  readonly category: CategoryExposure;
  readonly level: RiskLevel;
}

export const RISK_ORDER: readonly RiskLevel[] = RISK_LEVELS;
export const rankOf = (level: RiskLevel): number => rankOfRisk(level);
export const maxLevel = (a: RiskLevel, b: RiskLevel): RiskLevel => (rankOf(a) >= rankOf(b) ? a : b);

export function levelOfCategory(category: CategoryExposure, direction: Direction): RiskLevel {
  const share = category.weightedShare;
  if (category.severity >= 9) {
    if (direction === 'outgoing' && category.minHops === 1) return 'high';
    return share >= 0.01 ? 'high' : 'medium';
  }
  if (category.severity >= 7) return share >= 0.1 ? 'high' : share >= 0.01 ? 'medium' : 'low';
  return share >= 0.25 ? 'medium' : 'low';
}

/** Whether exposure to a category counts at all: risk categories only, and never dust. */
const counts = (category: CategoryExposure, weighting: ExposureResult['weighting']): boolean =>
  category.severity >= RISK_SEVERITY_FLOOR && (weighting !== 'usd' || category.usdMicros >= DUST_FLOOR_MICROS);

/**
 * The level exposure to a category gives the address in one direction: `none` for services and dust,
 * else the rule above. The one rating of exposure: the full check's evidence and exposure sections,
 * explore's categories and the verdict all read it.
 */
export function exposureLevelOf(category: CategoryExposure, direction: Direction, weighting: ExposureResult['weighting']): RiskLevel {
  return counts(category, weighting) ? levelOfCategory(category, direction) : 'none';
}

/** A search's direction as the rule names it. */
export const directionOf = (result: Pick<ExposureResult, 'direction'>): Direction => (result.direction === 'in' ? 'incoming' : 'outgoing');

/** The findings of one search that count toward the verdict, most severe first. */
export function findingsOf(result: ExposureResult | null, direction: Direction, tier: Tier): ExposureFinding[] {
  if (!result) return [];
  return result.categories
    .filter((c) => counts(c, result.weighting))
    .map((category) => ({
      tier,
      direction,
      relation: category.minHops === 1 ? ('direct' as const) : ('indirect' as const),
      category,
      level: levelOfCategory(category, direction),
    }));
}

export function levelOfFindings(findings: readonly ExposureFinding[]): RiskLevel {
  return findings.reduce<RiskLevel>((level, f) => maxLevel(level, f.level), 'none');
}

const BANDS: Readonly<Partial<Record<RiskLevel, readonly [number, number]>>> = {
  low: [10, 39],
  medium: [40, 69],
  high: [70, 89],
};

/** The score of an exposure level: its band, entered in proportion to the driving category's weighted share. */
export function scoreOfFindings(findings: readonly ExposureFinding[]): number {
  const level = levelOfFindings(findings);
  const band = BANDS[level];
  if (!band) return 0;
  const driver = Math.max(...findings.filter((f) => f.level === level).map((f) => f.category.weightedShare));
  return band[0] + Math.round((band[1] - band[0]) * Math.min(1, driver));
}
