import type { ExposurePath } from '../exposure/exposure.schema.js';
import type { SourceVersion } from '../coverage/data-versions.js';
import { computeConsensus } from '../intel/consensus.js';
import type { AddressIntel } from '../intel/intel.types.js';
import { categoryOf, type CategoryLevel, type Taxonomy } from '../intel/taxonomy.js';

/**
 * What is known about one sender of a transfer. Direct exposure is the sender's own categories (the
 * sender IS a sanctioned address, an exchange, a mixer…); indirect exposure is where the sender's own
 * funds came from, as shares of its inflow found by the graph engine. A sender with neither is
 * unknown — never clean, and never a reason to reject.
 */
export interface DirectCategory {
  readonly slug: string;
  readonly level: CategoryLevel;
  readonly severity: number;
  /** Noisy-OR confidence that the category applies, 0..100. */
  readonly confidence: number;
  readonly sources: readonly string[];
}

export interface IndirectCategory {
  readonly slug: string;
  /** Share of the sender's traced inflow that comes from the category, 0..1. */
  readonly share: number;
  /** Fewest hops between the sender and the category's source; null when the engine does not say. */
  readonly hops: number | null;
  /** The routes the search found, the heaviest first (at most three): the labelled entity first, the sender last. */
  readonly paths: readonly ExposurePath[];
}

/** `skipped`: beyond the largest senders a check traces (MAX_TRACED_SENDERS). */
export type GraphCoverage = 'analysed' | 'budget_exhausted' | 'no_history' | 'not_available' | 'skipped';

export interface SenderExposure {
  readonly address: string;
  /** Best counterparty name the intelligence gives (an exchange, a sanctioned entity), else null. */
  readonly label: string | null;
  readonly dataAvailable: boolean;
  readonly direct: readonly DirectCategory[];
  readonly indirect: readonly IndirectCategory[];
  readonly graph: GraphCoverage;
  /** The versions of every source behind its direct and indirect categories: the data of its exposure. */
  readonly sources: readonly SourceVersion[];
}

/** Direct exposure from the intelligence index: the consensus categories with a level above info. */
export function directExposure(intel: AddressIntel, taxonomy: Taxonomy): Pick<SenderExposure, 'label' | 'dataAvailable' | 'direct'> {
  const consensus = computeConsensus(intel.claims, intel.sources, taxonomy);
  const direct = consensus.categories.flatMap((category): DirectCategory[] => {
    const definition = categoryOf(taxonomy, category.slug);
    if (!definition || definition.level === 'info') return [];
    return [
      {
        slug: category.slug,
        level: definition.level,
        severity: definition.severity,
        confidence: Math.round(category.probability * 100),
        sources: [...category.sources],
      },
    ];
  });
  return { label: consensus.label, dataAvailable: intel.claims.length > 0 || intel.token !== null, direct };
}
