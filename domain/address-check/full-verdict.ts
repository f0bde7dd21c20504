import { present } from '../shared/present.js';
import { sourceVersionRow, transferDataRow } from '../coverage/data-versions.body.js';
import { mergeVersions, transferDataVersions } from '../coverage/data-versions.js';
import { sanctionsCoverageBody } from '../coverage/sanctions-coverage.body.js';
import type { CategoryExposure, ExposurePath, ExposureResult } from '../exposure/exposure.schema.js';
import type { RiskLevel } from '../intel/taxonomy.js';
import { microsToUsd } from '../shared/money.js';
import {
  directionOf,
  exposureLevelOf,
  findingsOf,
  levelOfFindings,
  maxLevel,
  rankOf,
  scoreOfFindings,
  type ExposureFinding,
} from './exposure-rule.js';
import { stopsBody } from './stops-body.js';
import type { Evidence, ExposureBody, FullCheckResult, HighRiskPayload } from './full-check-result.schema.js';
import { TIER_NAMES, TIERS, type NotAppliedReason, type TierOutcomeOf } from './tier-outcome.schema.js';
import { decisionOf, highRiskLevelOf, UNKNOWN_DECISION } from '../shared/verdict-vocabulary.js';

/**
 * The full check's verdict from its five tier outcomes (documented in docs/api.md, "The verdict rule"):
 *
 * - ownership level (tiers 0–1): `sanctioned` when a sanctions list names the address, else the
 *   consensus level of the address's own categories;
 * - exposure level (tiers 2–4): exposure-rule.ts, on the deepest search that ran in each direction;
 * - risk_level = the higher of the two; risk_score = the score of whichever decides it;
 * - decision, first match wins: `unable` when nothing is known (no intelligence and no transfer history:
 *   unknown, not clean); `reject` when the address itself is sanctioned, critical or high; `review` when
 *   the level is medium or above (so exposure alone never rejects: sanctions are not transitive);
 *   `accept` otherwise. A decision is a probabilistic signal for a compliance team, not a command.
 */

export const FULL_CHECK_SCHEMA_VERSION = 1;
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

const pct = (share: number): number => Math.round(share * 10_000) / 100;

/** One route of exposure in the body's words: the shape of the full check's evidence paths, also the transfer check's. */
export function pathBody(path: ExposurePath) {
  return {
    hops: path.hops,
    addresses: [...path.addresses],
    usd: microsToUsd(path.usdMicros),
    share_pct: pct(path.share),
    label: path.label,
    source: path.source,
    usd_estimated: path.usdEstimated,
  };
}

export function exposureBody(applied: boolean, reason: NotAppliedReason | null, result: ExposureResult | null): ExposureBody {
  return {
    applied,
    reason,
    complete: result?.complete ?? null,
    stopped_by: result?.stoppedBy ?? null,
    weighting: result?.weighting ?? null,
    total_usd: result ? microsToUsd(result.totalUsdMicros) : null,
    total_transfers: result?.totalTransfers ?? null,
    unattributed_pct: result ? pct(result.unattributedShare) : null,
    usd_estimated: result?.usdEstimated ?? false,
    search: result
      ? { nodes: result.nodesVisited, edges: result.edgesScanned, hops: result.hopsReached, elapsed_ms: result.elapsedMs }
      : null,
    categories: (result?.categories ?? []).map((c: CategoryExposure) => ({
      slug: c.slug,
      severity: c.severity,
      // what this exposure makes of the address (exposure-rule.ts), not the category's own level
      risk_level: result ? exposureLevelOf(c, directionOf(result), result.weighting) : c.riskLevel,
      usd: microsToUsd(c.usdMicros),
      share_pct: pct(c.share),
      weighted_share_pct: pct(c.weightedShare),
      min_hops: c.minHops,
      entities: c.entities,
      paths: c.paths.map(pathBody),
    })),
    stops: result ? stopsBody(result.stops) : null,
  };
}

function exposureEvidence(finding: ExposureFinding): Evidence {
  const c = finding.category;
  return {
    slug: c.slug,
    severity: c.severity,
    risk_level: finding.level,
    relation: finding.relation,
    direction: finding.direction,
    tier: finding.tier,
    usd: microsToUsd(c.usdMicros),
    share_pct: pct(c.share),
    weighted_share_pct: pct(c.weightedShare),
    hops: c.minHops,
    sources: [...new Set(c.paths.map((p) => p.source))],
    paths: c.paths.map(pathBody),
  };
}

function ownershipEvidence(tiers: CompletedTiers): Evidence[] {
  const verdict = tiers[1].screen.verdict;
  const rows: Evidence[] = [];
  if (tiers[0].sanctioned) {
    rows.push({
      slug: 'sanctions',
      severity: 10,
      risk_level: 'sanctioned',
      relation: 'ownership',
      direction: 'self',
      tier: 0,
      usd: null,
      share_pct: null,
      weighted_share_pct: null,
      hops: 0,
      sources: tiers[0].sdnMatch ? [tiers[0].sdnMatch.source] : [],
      paths: [],
    });
  }
  for (const detail of verdict.risk_category_detail) {
    if (detail.risk_level === null || detail.risk_level === 'none' || rows.some((r) => r.slug === detail.slug)) continue;
    if (!verdict.risk_categories.includes(detail.slug)) continue;
    rows.push({
      slug: detail.slug,
      severity: detail.severity,
      risk_level: detail.risk_level,
      relation: 'ownership',
      direction: 'self',
      tier: 1,
      usd: null,
      share_pct: null,
      weighted_share_pct: null,
      hops: 0,
      sources: [...detail.sources],
      paths: [],
    });
  }
  return rows;
}

function decide(input: {
  known: boolean;
  own: RiskLevel;
  level: RiskLevel;
  tiers: CompletedTiers;
  driver: ExposureFinding | null;
  ownSlug: string | null;
}): { decision: FullCheckResult['decision']; reason: string } {
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
    ? `${pct(driver.category.share)} % of ${driver.direction} funds trace to ${driver.category.slug} within ${driver.category.minHops} hop(s)`
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

export function buildFullCheckResult(subject: CheckSubject, tiers: CompletedTiers, completedAt: string): FullCheckResult {
  const screen = tiers[1].screen;
  const own: RiskLevel = tiers[0].sanctioned ? 'sanctioned' : (screen.verdict.risk_level ?? 'none');
  const ownScore = tiers[0].sanctioned ? 100 : (screen.verdict.risk_score ?? 0);

  const t2 = tiers[2];
  const t3 = tiers[3];
  const t4 = tiers[4];
  const direct = [...findingsOf(t2.incoming, 'incoming', 2), ...findingsOf(t2.outgoing, 'outgoing', 2)];
  const deepIn = findingsOf(t3.exposure, 'incoming', 3);
  const deepOut = findingsOf(t4.exposure, 'outgoing', 4);
  const counted = [
    ...(t3.applied ? deepIn : direct.filter((f) => f.direction === 'incoming')),
    ...(t4.applied ? deepOut : direct.filter((f) => f.direction === 'outgoing')),
  ];
  const exposureLevel = levelOfFindings(counted);
  const level = maxLevel(own, exposureLevel);
  const known = screen.coverage.data_available || t2.activity !== null;
  const score = !known ? null : rankOf(own) >= rankOf(exposureLevel) ? ownScore : Math.max(ownScore, scoreOfFindings(counted));

  const tierLevels: Record<number, RiskLevel> = {
    0: tiers[0].sanctioned ? 'sanctioned' : 'none',
    1: own,
    2: levelOfFindings(direct),
    3: levelOfFindings(deepIn),
    4: levelOfFindings(deepOut),
  };
  const tierHit = level === 'none' ? null : (TIERS.find((t) => tierLevels[t] === level) ?? null);
  const driver =
    [...counted].sort((a, b) => rankOf(b.level) - rankOf(a.level) || b.category.weightedShare - a.category.weightedShare)[0] ?? null;
  const ownSlug = screen.verdict.risk_categories[0] ?? null;
  const { decision, reason } = decide({ known, own, level, tiers, driver, ownSlug });

  const evidence = [...ownershipEvidence(tiers), ...counted.map(exposureEvidence)];
  const riskCategories = [...new Set([...screen.verdict.risk_categories, ...counted.map((f) => f.category.slug)])];
  const applied = (t: { applied: boolean }) => t.applied;
  const dataVersions = tracedDataVersions(tiers);
  const drivenBy = exposureDriver(own, level, driver);
  const sources = new Set(evidence.flatMap((e) => e.sources));

  return {
    check_id: subject.checkId,
    schema_version: FULL_CHECK_SCHEMA_VERSION,
    status: 'completed',
    address: subject.address,
    network: subject.network,
    provider: OWN_ENGINE,
    decision,
    decision_reason: reason,
    verdict: {
      ...screen.verdict,
      risk_level: level,
      risk_score: score,
      risk_categories: riskCategories,
      tier3_applied: t3.applied,
      tier3_reason: t3.reason,
      tier4_applied: t4.applied,
      tier4_reason: t4.reason,
      tier_hit: tierHit,
      ownership_risk_level: own,
      exposure_risk_level: exposureLevel,
      // Driven by exposure: the finding that drove the level is the exposure's, so are its sources and confidence.
      ...(drivenBy
        ? {
            source_count: Math.max(screen.verdict.source_count, sources.size),
            confidence: drivenBy.category.confidence ?? null,
            primary_source_slug:
              screen.verdict.primary_source_slug ?? drivenBy.category.sources?.[0] ?? drivenBy.category.paths[0]?.source ?? null,
          }
        : {}),
    },
    coverage: {
      ...screen.coverage,
      ...(drivenBy ? { source_count: Math.max(screen.coverage.source_count, sources.size) } : {}),
      data_versions: dataVersions,
      // Tier 0 is the sanctions tier: what it read is what the verdict was checked against.
      ...(tiers[0].sanctions ? { sanctions: sanctionsCoverageBody(tiers[0].sanctions) } : {}),
      tiers: TIERS.filter((t) => t < 2 || applied(tiers[t] as { applied: boolean })).map((t) => TIER_NAMES[t]),
      graph_analysed: t3.applied || t4.applied,
      transfer_history: t2.activity !== null,
      transfer_data: t2.transferData.datasets.map(({ name, transfers, from, to, caveat }) => ({ name, transfers, from, to, caveat })),
    },
    evidence,
    exposure: {
      direct_incoming: exposureBody(t2.applied, t2.reason, t2.incoming),
      direct_outgoing: exposureBody(t2.applied, t2.reason, t2.outgoing),
      source_of_funds: exposureBody(t3.applied, t3.reason, t3.exposure),
      destination_of_funds: exposureBody(t4.applied, t4.reason, t4.exposure),
    },
    activity: t2.activity
      ? {
          incoming_transfers: t2.activity.incomingTransfers,
          outgoing_transfers: t2.activity.outgoingTransfers,
          incoming_usd: microsToUsd(t2.activity.incomingUsdMicros),
          outgoing_usd: microsToUsd(t2.activity.outgoingUsdMicros),
          unpriced_transfers: t2.activity.unpricedTransfers,
          first_seen_at: t2.activity.firstAt,
          last_seen_at: t2.activity.lastAt,
        }
      : null,
    tiers: TIERS.map((t) => ({
      tier: t,
      name: TIER_NAMES[t],
      applied: t < 2 ? true : (tiers[t] as { applied: boolean }).applied,
      reason: t < 2 ? null : (tiers[t] as { reason: NotAppliedReason | null }).reason,
      risk_level: present(tierLevels[t], 'every tier has a level in the table'),
    })),
    requested_at: subject.requestedAt,
    completed_at: completedAt,
  };
}

/** The exposure finding that decided the level, when exposure (not the address itself) decided it. */
function exposureDriver(own: RiskLevel, level: RiskLevel, driver: ExposureFinding | null): ExposureFinding | null {
  return driver && level !== 'none' && driver.level === level && rankOf(level) > rankOf(own) ? driver : null;
}

/** The address's own sources (tier 1) with those of every entity the searches reached (tiers 2–4), and the transfer data read. */
function tracedDataVersions(tiers: CompletedTiers): FullCheckResult['coverage']['data_versions'] {
  const own = tiers[1].screen.coverage.data_versions;
  const reached = mergeVersions(tiers[2].sourceVersions ?? [], tiers[3].sourceVersions ?? [], tiers[4].sourceVersions ?? []);
  const ownSources = own.sources.map((s) => s.source);
  return {
    taxonomy: own.taxonomy,
    snapshot: own.snapshot,
    sources: [...own.sources, ...reached.filter((v) => !ownSources.includes(v.source)).map(sourceVersionRow)].sort((a, b) =>
      a.source < b.source ? -1 : 1,
    ),
    transfer_data: transferDataVersions(tiers[2].transferData.datasets).map(transferDataRow),
  };
}

/** The service.check.high_risk payload of a result: only for high or severe (critical, sanctioned) verdicts. */
export function highRiskPayload(result: FullCheckResult): HighRiskPayload | null {
  const level = result.verdict.risk_level;
  const highRisk = level === null ? null : highRiskLevelOf(level);
  if (highRisk === null || result.verdict.tier_hit === null) return null;
  return {
    check_id: result.check_id,
    address: result.address,
    network: result.network,
    risk_level: highRisk,
    risk_score: result.verdict.risk_score ?? 0,
    tier_hit: result.verdict.tier_hit,
    categories: [...result.verdict.risk_categories],
    ...(result.coverage.sanctions ? { sanctions: result.coverage.sanctions } : {}),
  };
}
