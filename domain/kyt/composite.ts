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
  /** 0..10, one decimal: the highest of its direct severities and of its indirect ones scaled by their shares. */
  readonly riskScore: number;
}

export interface CategoryShare {
  /** 0..1 of the composite. */
  readonly share: number;
  readonly usdMicros: Micros;
  /** The sender that contributes most USD to it (ties: weight, then address). */
  readonly anchor: Anchor;
  /** Every sender that contributes to it, the most USD first (ties: weight, then address): the evidence behind an alert. */
  readonly senders: readonly string[];
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

interface Part {
  sender: CompositeSender;
  usdMicros: number;
  weight: number;
}

interface Contribution {
  share: number;
  usdMicros: number;
  parts: Part[];
}

const heavierFirst = (a: Part, b: Part) =>
  b.usdMicros - a.usdMicros || b.weight - a.weight || (a.sender.address < b.sender.address ? -1 : 1);

function contribute(into: Contribution, sender: CompositeSender, fraction: number) {
  const usd = sender.usdMicros * fraction;
  const weight = sender.weight * fraction;
  into.share += weight;
  into.usdMicros += usd;
  into.parts.push({ sender, usdMicros: usd, weight });
}

function toShare(c: Contribution | undefined): CategoryShare | null {
  const parts = c ? [...c.parts].sort(heavierFirst) : [];
  const best = parts[0];
  if (!c || !best) return null;
  return {
    share: Math.min(1, c.share),
    usdMicros: Math.round(c.usdMicros),
    anchor: { address: best.sender.address, label: best.sender.label },
    senders: parts.map((part) => part.sender.address),
  };
}

function weighSenders(
  legs: readonly ValuedLeg[],
  exposures: ReadonlyMap<string, SenderExposure>,
  taxonomy: Taxonomy,
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
    const direct = exposure?.direct ?? [];
    const indirect = exposure?.indirect ?? [];
    return {
      address,
      usdMicros: usd,
      weight: weighting === 'usd' ? usd / total : 1 / bySender.size,
      legs: count,
      label: exposure?.label ?? null,
      dataAvailable: exposure?.dataAvailable ?? false,
      direct,
      indirect,
      graph: exposure?.graph ?? 'not_available',
      riskScore: Math.round(Math.min(10, senderSeverity(direct, indirect, taxonomy)) * 10) / 10,
    };
  });
  senders.sort((a, b) => b.usdMicros - a.usdMicros || b.weight - a.weight || (a.address < b.address ? -1 : 1));
  return { senders, totalUsdMicros: total, weighting };
}

/** A sender's severity: its own categories', or its exposure's scaled by share and never past high (sanctions are not transitive). */
function senderSeverity(direct: readonly DirectCategory[], indirect: readonly IndirectCategory[], taxonomy: Taxonomy): number {
  const own = direct.map((c) => c.severity);
  const traced = indirect.map((c) => Math.min(EXPOSURE_SEVERITY_CEILING, (categoryOf(taxonomy, c.slug)?.severity ?? 0) * c.share));
  return Math.max(0, ...own, ...traced);
}

export function computeComposite(
  legs: readonly ValuedLeg[],
  exposures: ReadonlyMap<string, SenderExposure>,
  taxonomy: Taxonomy,
): Composite {
  const { senders, totalUsdMicros, weighting } = weighSenders(legs, exposures, taxonomy);
  const direct = new Map<string, Contribution>();
  const indirect = new Map<string, Contribution>();
  const slot = (map: Map<string, Contribution>, slug: string): Contribution => {
    const existing = map.get(slug);
    if (existing) return existing;
    const created: Contribution = { share: 0, usdMicros: 0, parts: [] };
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
  const riskScore = senders.reduce((sum, s) => sum + s.weight * senderSeverity(s.direct, s.indirect, taxonomy), 0);
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
