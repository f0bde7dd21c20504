import { categoryOf, type CategoryLevel, type Taxonomy } from '../intel/taxonomy.js';
import type { Micros } from '../shared/money.js';
import type { TransferLeg } from './decoded-transaction.js';
import type { DirectCategory, GraphCoverage, IndirectCategory, SenderExposure } from './sender-exposure.js';
import { EXPOSURE_SEVERITY_CEILING } from '../shared/verdict-vocabulary.js';

/**
 * The USD-weighted composite of a transfer's senders.
 *
 * Each sender s weighs w(s) = usd(s) / Σ usd, where usd(s) is the USD value of every leg it sent. When
 * no leg could be valued (unknown tokens), the senders weigh equally, w(s) = 1 / n, and the composite
 * says so (`weighting: 'equal'`). Per category c:
 *   direct share   D(c) = Σ w(s) over the senders that carry c themselves;   USD  Σ usd(s)
 *   indirect share I(c) = Σ w(s) · share_s(c), share_s(c) the part of s's inflow traced to c;  USD  Σ usd(s) · share_s(c)
 * The unknown share is the weight of senders about which nothing is known. The composite risk score
 * (0..10) is Σ w(s) · sev(s), sev(s) the highest of s's direct severities and of its indirect
 * severities scaled by their shares, an indirect one never above 8 (exposure alone stops at high, as in
 * the full check: docs/api.md, "One vocabulary").
 */
export interface ValuedLeg extends TransferLeg {
  /** USD value in micro-USD; null when the asset has no price or its decimals are unknown. */
  readonly usdMicros: Micros | null;
}

export interface Anchor {
  readonly address: string;
  readonly label: string | null;
}

export interface CompositeSender {
  readonly address: string;
  readonly usdMicros: Micros;
  /** 0..1 */
  readonly weight: number;
  readonly legs: number;
  readonly label: string | null;
  readonly dataAvailable: boolean;
  readonly direct: readonly DirectCategory[];
  readonly indirect: readonly IndirectCategory[];
  readonly graph: GraphCoverage;
}

export interface CategoryShare {
  /** 0..1 of the composite. */
  readonly share: number;
  readonly usdMicros: Micros;
  /** The sender that contributes most USD to it (ties: weight, then address). */
  readonly anchor: Anchor;
}

export interface CompositeCategory {
  readonly slug: string;
  readonly displayName: string;
  readonly level: CategoryLevel;
  readonly severity: number;
  readonly direct: CategoryShare | null;
  readonly indirect: CategoryShare | null;
}

export interface Composite {
  readonly totalUsdMicros: Micros;
  readonly pricing: 'full' | 'partial' | 'none';
  readonly weighting: 'usd' | 'equal';
  /** Most USD first, then address. */
  readonly senders: readonly CompositeSender[];
  /** Most severe first, then larger share, then slug. */
  readonly categories: readonly CompositeCategory[];
  /** 0..1 */
  readonly unknownShare: number;
  /** 0..10, one decimal. */
  readonly riskScore: number;
}

interface Contribution {
  share: number;
  usdMicros: number;
  best: { sender: CompositeSender; usdMicros: number; weight: number } | null;
}

function contribute(into: Contribution, sender: CompositeSender, fraction: number) {
  const usd = sender.usdMicros * fraction;
  const weight = sender.weight * fraction;
  into.share += weight;
  into.usdMicros += usd;
  const best = into.best;
  if (
    !best ||
    usd > best.usdMicros ||
    (usd === best.usdMicros && (weight > best.weight || (weight === best.weight && sender.address < best.sender.address)))
  ) {
    into.best = { sender, usdMicros: usd, weight };
  }
}

const toShare = (c: Contribution | undefined): CategoryShare | null =>
  c && c.best
    ? {
        share: Math.min(1, c.share),
        usdMicros: Math.round(c.usdMicros),
        anchor: { address: c.best.sender.address, label: c.best.sender.label },
      }
    : null;

function weighSenders(
  legs: readonly ValuedLeg[],
  exposures: ReadonlyMap<string, SenderExposure>,
): Pick<Composite, 'senders' | 'totalUsdMicros' | 'weighting'> {
  const bySender = new Map<string, { usd: number; legs: number }>();
  for (const leg of legs) {
    const entry = bySender.get(leg.from) ?? { usd: 0, legs: 0 };
    entry.usd += leg.usdMicros ?? 0;
    entry.legs += 1;
    bySender.set(leg.from, entry);
  }
  const total = [...bySender.values()].reduce((sum, s) => sum + s.usd, 0);
  const weighting = total > 0 ? 'usd' : 'equal';
  const senders = [...bySender].map(([address, { usd, legs: count }]): CompositeSender => {
    const exposure = exposures.get(address);
    return {
      address,
      usdMicros: usd,
      weight: weighting === 'usd' ? usd / total : 1 / bySender.size,
      legs: count,
      label: exposure?.label ?? null,
      dataAvailable: exposure?.dataAvailable ?? false,
      direct: exposure?.direct ?? [],
      indirect: exposure?.indirect ?? [],
      graph: exposure?.graph ?? 'not_available',
    };
  });
  senders.sort((a, b) => b.usdMicros - a.usdMicros || b.weight - a.weight || (a.address < b.address ? -1 : 1));
  return { senders, totalUsdMicros: total, weighting };
}

/** A sender's severity: its own categories', or its exposure's scaled by share and never past high (sanctions are not transitive). */
function senderSeverity(sender: CompositeSender, taxonomy: Taxonomy): number {
  const direct = sender.direct.map((c) => c.severity);
  const indirect = sender.indirect.map((c) => Math.min(EXPOSURE_SEVERITY_CEILING, (categoryOf(taxonomy, c.slug)?.severity ?? 0) * c.share));
  return Math.max(0, ...direct, ...indirect);
}

export function computeComposite(
  legs: readonly ValuedLeg[],
  exposures: ReadonlyMap<string, SenderExposure>,
  taxonomy: Taxonomy,
): Composite {
  const { senders, totalUsdMicros, weighting } = weighSenders(legs, exposures);
  const direct = new Map<string, Contribution>();
  const indirect = new Map<string, Contribution>();
  const slot = (map: Map<string, Contribution>, slug: string): Contribution => {
    const existing = map.get(slug);
    if (existing) return existing;
    const created: Contribution = { share: 0, usdMicros: 0, best: null };
    map.set(slug, created);
    return created;
  };
  for (const sender of senders) {
    for (const category of sender.direct) contribute(slot(direct, category.slug), sender, 1);
    for (const category of sender.indirect)
      if (category.share > 0) contribute(slot(indirect, category.slug), sender, Math.min(1, category.share));
  }
  const categories = [...new Set([...direct.keys(), ...indirect.keys()])].flatMap((slug): CompositeCategory[] => {
    const definition = categoryOf(taxonomy, slug);
    if (!definition || definition.level === 'info') return [];
    return [
      {
        slug,
        displayName: definition.displayName,
        level: definition.level,
        severity: definition.severity,
        direct: toShare(direct.get(slug)),
        indirect: toShare(indirect.get(slug)),
      },
    ];
  });
  const largest = (c: CompositeCategory) => Math.max(c.direct?.share ?? 0, c.indirect?.share ?? 0);
  categories.sort((a, b) => b.severity - a.severity || largest(b) - largest(a) || (a.slug < b.slug ? -1 : 1));
  const unknownShare = senders.filter((s) => !s.dataAvailable && s.indirect.length === 0).reduce((sum, s) => sum + s.weight, 0);
  const riskScore = senders.reduce((sum, s) => sum + s.weight * senderSeverity(s, taxonomy), 0);
  const pricedLegs = legs.filter((leg) => leg.usdMicros !== null).length;
  return {
    totalUsdMicros,
    pricing: legs.length === 0 || pricedLegs === legs.length ? 'full' : pricedLegs === 0 ? 'none' : 'partial',
    weighting,
    senders,
    categories,
    unknownShare: Math.min(1, unknownShare),
    riskScore: Math.round(Math.min(10, riskScore) * 10) / 10,
  };
}
