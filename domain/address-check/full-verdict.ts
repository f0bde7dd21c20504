import { mergeVersions, transferDataVersions } from '../coverage/data-versions.js';
import { sanctionsCoverageBody } from '../webhooks/sanctions-coverage.words.js';
import { exposureFoundOf } from '../exposure/exposure-found.js';
import type { ExposureResult } from '../exposure/exposure.schema.js';
import type { RiskLevel } from '../intel/taxonomy.js';
import { findingsOf, levelOfFindings, maxLevel, rankOf, scoreOfFindings, type ExposureFinding } from './exposure-rule.js';
import { FULL_CHECK_VERDICT_VERSION, type ExposureOutcome, type FullCheckVerdict, type VerdictEvidence } from './full-check-verdict.js';
import type { HighRiskPayload } from './high-risk-payload.js';
import { TIERS, type NotAppliedReason, type Tier, type TierOutcomeOf } from './tier-outcome.schema.js';
import { decisionOf, highRiskLevelOf, UNKNOWN_DECISION, type Decision } from '../shared/verdict-vocabulary.js';

/**
 * The full check's verdict from its five tier outcomes (documented in docs/api.md, "The verdict rule"):
 *
 * - ownership level (tiers 0–1): `sanctioned` when a sanctions list names the address, else the
 *   consensus level of the address's own categories;
 * - exposure level (tiers 2–4): exposure-rule.ts, on the deepest search that ran in each direction;
 * - level = the higher of the two; score = the score of whichever decides it;
 * - decision, first match wins: `unable` when nothing is known (no intelligence and no transfer history:
 *   unknown, not clean); `reject` when the address itself is sanctioned, critical or high; `review` when
 *   the level is medium or above (so exposure alone never rejects: sanctions are not transitive);
 *   `accept` otherwise. A decision is a probabilistic signal for a compliance team, not a command.
 */

export const OWN_ENGINE = 'service';

export interface CheckSubject {
  readonly checkId: string;
  readonly address: string;
  readonly network: string;
  readonly requestedAt: string;
}

export interface CompletedTiers {
  readonly 0: TierOutcomeOf<0>;
  readonly 1: TierOutcomeOf<1>;
  readonly 2: TierOutcomeOf<2>;
  readonly 3: TierOutcomeOf<3>;
  readonly 4: TierOutcomeOf<4>;
}

const exposureOutcome = (applied: boolean, reason: NotAppliedReason | null, result: ExposureResult | null): ExposureOutcome => ({
  applied,
  reason,
  found: result ? exposureFoundOf(result) : null,
});

function exposureEvidence(finding: ExposureFinding): VerdictEvidence {
  const c = finding.category;
  return {
    slug: c.slug,
    severity: c.severity,
    addressLevel: finding.level,
    relation: finding.relation,
    direction: finding.direction,
    tier: finding.tier,
    usdMicros: c.usdMicros,
    share: c.share,
    weightedShare: c.weightedShare,
    hops: c.minHops,
    sources: [...new Set(c.paths.map((p) => p.source))],
    paths: [...c.paths],
  };
}

const ownRow = (row: Pick<VerdictEvidence, 'slug' | 'severity' | 'addressLevel' | 'tier' | 'sources'>): VerdictEvidence => ({
  ...row,
  relation: 'ownership',
  direction: 'self',
  usdMicros: null,
  share: null,
  weightedShare: null,
  hops: 0,
  paths: [],
});

function ownershipEvidence(tiers: CompletedTiers): VerdictEvidence[] {
  const verdict = tiers[1].screen.verdict;
  const rows: VerdictEvidence[] = [];
  if (tiers[0].sanctioned) {
    const sources = tiers[0].sdnMatch ? [tiers[0].sdnMatch.source] : [];
    rows.push(ownRow({ slug: 'sanctions', severity: 10, addressLevel: 'sanctioned', tier: 0, sources }));
  }
  for (const detail of verdict.categoryDetail) {
    if (detail.addressLevel === null || detail.addressLevel === 'none' || rows.some((r) => r.slug === detail.slug)) continue;
    if (!verdict.riskCategories.includes(detail.slug)) continue;
    rows.push(
      ownRow({ slug: detail.slug, severity: detail.severity, addressLevel: detail.addressLevel, tier: 1, sources: [...detail.sources] }),
    );
  }
  return rows;
}

/** A share as the reason's sentence says it: percent, two decimals. */
const percentOf = (share: number): number => Math.round(share * 10_000) / 100;

function decide(input: {
  known: boolean;
  own: RiskLevel;
  level: RiskLevel;
  tiers: CompletedTiers;
  driver: ExposureFinding | null;
  ownSlug: string | null;
}): { decision: Decision; reason: string } {
  const { own, level, tiers, driver } = input;
  if (!input.known) {
    return {
      decision: UNKNOWN_DECISION,
      reason: 'no intelligence and no transaction history for this address on this network: unknown, not clean',
    };
  }
  if (tiers[0].sanctioned)
    return {
      decision: 'reject',
      reason: `the address is on a sanctions list (${tiers[0].sdnMatch?.list ?? 'US'}: ${tiers[0].sdnMatch?.source ?? 'sanctions registry'})`,
    };
  if (decisionOf(own, level) === 'reject')
    return { decision: 'reject', reason: `the address itself is attributed to ${input.ownSlug ?? own} (${own})` };
  const viaExposure = driver && rankOf(driver.level) >= rankOf(own) && driver.level === level;
  const exposureText = driver
    ? `${percentOf(driver.category.share)} % of ${driver.direction} funds trace to ${driver.category.slug} within ${driver.category.minHops} hop(s)`
    : '';
  if (decisionOf(own, level) === 'review') {
    return {
      decision: 'review',
      reason: viaExposure ? exposureText : `the address itself is attributed to ${input.ownSlug ?? own} (${own})`,
    };
  }
  return {
    decision: 'accept',
    reason: level === 'none' ? 'no risk signal found' : `only low risk signals${viaExposure ? `: ${exposureText}` : ''}`,
  };
}

/** The levels of the tiers, the counted findings and the driver: what the verdict rule reads (docs/api.md, "The verdict rule"). */
function findingsOfTiers(tiers: CompletedTiers) {
  const screen = tiers[1].screen;
  const own: RiskLevel = tiers[0].sanctioned ? 'sanctioned' : (screen.verdict.addressLevel ?? 'none');
  const ownScore = tiers[0].sanctioned ? 100 : (screen.verdict.riskScore ?? 0);
  const t2 = tiers[2];
  const direct = [...findingsOf(t2.incoming, 'incoming', 2), ...findingsOf(t2.outgoing, 'outgoing', 2)];
  const deepIn = findingsOf(tiers[3].exposure, 'incoming', 3);
  const deepOut = findingsOf(tiers[4].exposure, 'outgoing', 4);
  const counted = [
    ...(tiers[3].applied ? deepIn : direct.filter((f) => f.direction === 'incoming')),
    ...(tiers[4].applied ? deepOut : direct.filter((f) => f.direction === 'outgoing')),
  ];
  const exposureLevel = levelOfFindings(counted);
  const level = maxLevel(own, exposureLevel);
  const known = screen.coverage.dataAvailable || t2.activity !== null;
  const score = !known ? null : rankOf(own) >= rankOf(exposureLevel) ? ownScore : Math.max(ownScore, scoreOfFindings(counted));
  const tierLevels: Readonly<Record<Tier, RiskLevel>> = {
    0: tiers[0].sanctioned ? 'sanctioned' : 'none',
    1: own,
    2: levelOfFindings(direct),
    3: levelOfFindings(deepIn),
    4: levelOfFindings(deepOut),
  };
  const driver =
    [...counted].sort((a, b) => rankOf(b.level) - rankOf(a.level) || b.category.weightedShare - a.category.weightedShare)[0] ?? null;
  return { own, exposureLevel, level, known, score, tierLevels, counted, driver };
}

const appliedOf = (tiers: CompletedTiers, t: Tier): boolean => (t < 2 ? true : (tiers[t] as { applied: boolean }).applied);
const reasonOf = (tiers: CompletedTiers, t: Tier): NotAppliedReason | null =>
  t < 2 ? null : (tiers[t] as { reason: NotAppliedReason | null }).reason;

/** The level, score and the sources behind them: exposure's when exposure (not the address itself) decided the level. */
function riskOf(
  tiers: CompletedTiers,
  found: ReturnType<typeof findingsOfTiers>,
  evidence: readonly VerdictEvidence[],
): FullCheckVerdict['risk'] {
  const screen = tiers[1].screen.verdict;
  const { own, level, driver, tierLevels } = found;
  const drivenBy = exposureDriver(own, level, driver);
  const sources = new Set(evidence.flatMap((e) => e.sources));
  return {
    level,
    score: found.score,
    categories: [...new Set([...screen.riskCategories, ...found.counted.map((f) => f.category.slug)])],
    tierHit: level === 'none' ? null : (TIERS.find((t) => tierLevels[t] === level) ?? null),
    ownershipLevel: own,
    exposureLevel: found.exposureLevel,
    // Driven by exposure: the finding that drove the level is the exposure's, so are its sources and confidence.
    sourceCount: drivenBy ? Math.max(screen.sourceCount, sources.size) : screen.sourceCount,
    confidence: drivenBy ? (drivenBy.category.confidence ?? null) : screen.confidence,
    primarySourceSlug: drivenBy
      ? (screen.primarySourceSlug ?? drivenBy.category.sources?.[0] ?? drivenBy.category.paths[0]?.source ?? null)
      : screen.primarySourceSlug,
  };
}

function coverageOf(tiers: CompletedTiers, drivenByExposure: boolean, sourceCount: number): FullCheckVerdict['coverage'] {
  const { coverage, verdict } = tiers[1].screen;
  // Tier 0 is the sanctions tier: what it read is what the verdict was checked against (else the screen's, in older outcomes).
  const sanctions = tiers[0].sanctions ?? coverage.sanctions;
  return {
    dataAvailable: coverage.dataAvailable,
    labelCount: verdict.labels.length,
    sourceCount: drivenByExposure ? Math.max(verdict.sourceCount, sourceCount) : verdict.sourceCount,
    consensusFound: verdict.consensusFound,
    ...(sanctions ? { sanctions } : {}),
    transferDatasets: tiers[2].transferData.datasets.map(({ name, transfers, from, to, caveat }) => ({
      name,
      transfers,
      from,
      to,
      caveat,
    })),
  };
}

export function buildFullCheckVerdict(subject: CheckSubject, tiers: CompletedTiers, completedAt: string): FullCheckVerdict {
  const screen = tiers[1].screen.verdict;
  const found = findingsOfTiers(tiers);
  const { decision, reason } = decide({ ...found, tiers, ownSlug: screen.riskCategories[0] ?? null });
  const evidence = [...ownershipEvidence(tiers), ...found.counted.map(exposureEvidence)];
  const drivenBy = exposureDriver(found.own, found.level, found.driver) !== null;
  const { 2: t2, 3: t3, 4: t4 } = tiers;
  return {
    version: FULL_CHECK_VERDICT_VERSION,
    checkId: subject.checkId,
    subject: { address: subject.address, network: subject.network },
    engine: OWN_ENGINE,
    decision,
    decisionReason: reason,
    risk: riskOf(tiers, found, evidence),
    intel: {
      consensusFound: screen.consensusFound,
      label: screen.label,
      sdnMatch: screen.sanctionsMatch,
      labels: screen.labels,
      smartContract: screen.smartContract,
      categoryDetail: screen.categoryDetail,
    },
    coverage: coverageOf(tiers, drivenBy, new Set(evidence.flatMap((e) => e.sources)).size),
    dataVersions: tracedDataVersions(tiers),
    evidence,
    exposure: {
      directIncoming: exposureOutcome(t2.applied, t2.reason, t2.incoming),
      directOutgoing: exposureOutcome(t2.applied, t2.reason, t2.outgoing),
      sourceOfFunds: exposureOutcome(t3.applied, t3.reason, t3.exposure),
      destinationOfFunds: exposureOutcome(t4.applied, t4.reason, t4.exposure),
    },
    activity: t2.activity,
    tiers: TIERS.map((t) => ({ tier: t, applied: appliedOf(tiers, t), reason: reasonOf(tiers, t), addressLevel: found.tierLevels[t] })),
    requestedAt: subject.requestedAt,
    completedAt,
  };
}

/** The exposure finding that decided the level, when exposure (not the address itself) decided it. */
function exposureDriver(own: RiskLevel, level: RiskLevel, driver: ExposureFinding | null): ExposureFinding | null {
  return driver && level !== 'none' && driver.level === level && rankOf(level) > rankOf(own) ? driver : null;
}

/** The address's own sources (tier 1) with those of every entity the searches reached (tiers 2–4), and the transfer data read. */
function tracedDataVersions(tiers: CompletedTiers): FullCheckVerdict['dataVersions'] {
  const own = tiers[1].screen.coverage.dataVersions;
  const reached = mergeVersions(tiers[2].sourceVersions ?? [], tiers[3].sourceVersions ?? [], tiers[4].sourceVersions ?? []);
  const ownSources = own.sources.map((s) => s.source);
  return {
    taxonomy: own.taxonomy,
    snapshot: own.snapshot,
    sources: [...own.sources, ...reached.filter((v) => !ownSources.includes(v.source))].sort((a, b) => (a.source < b.source ? -1 : 1)),
    transferData: transferDataVersions(tiers[2].transferData.datasets),
  };
}

/** The service.check.high_risk payload of a verdict: only for high or severe (critical, sanctioned) verdicts. */
export function highRiskPayload(verdict: FullCheckVerdict): HighRiskPayload | null {
  const level = verdict.risk.level;
  const highRisk = level === null ? null : highRiskLevelOf(level);
  if (highRisk === null || verdict.risk.tierHit === null) return null;
  const sanctions = verdict.coverage.sanctions;
  return {
    check_id: verdict.checkId,
    address: verdict.subject.address,
    network: verdict.subject.network,
    risk_level: highRisk,
    risk_score: verdict.risk.score ?? 0,
    tier_hit: verdict.risk.tierHit,
    categories: [...verdict.risk.categories],
    ...(sanctions ? { sanctions: sanctionsCoverageBody(sanctions) } : {}),
  };
}
