import { searchExposure } from '../exposure/exposure-search.js';
import type { ExposureBudget, ExposureResult } from '../exposure/exposure.schema.js';
import { versionsOf, type SourceVersion } from '../coverage/data-versions.js';
import { labelFromIntel, memoized, RISK_SEVERITY_FLOOR, type Classify } from '../exposure/node-label.js';
import { addressVerdict, checkedIntel } from '../intel/address-verdict.js';
import { buildScreenVerdict } from '../intel/screen-verdict.js';
import type { Clock } from '../ports/clock.port.js';
import type { ContractCodeReader } from '../ports/contract-code.port.js';
import type { AddressActivity, FlowDirection, TransferIndex } from '../ports/chain-data.port.js';
import type { IntelIndex } from '../ports/intel-index.port.js';
import type { Network } from '../shared/network.js';
import type { ActivitySummary, NotAppliedReason, Tier, TierOutcome, TierOutcomeOf } from './tier-outcome.schema.js';

/**
 * What each tier does, over the ports only (the processors call these and record the outcome). Tiers 0
 * and 1 are the light screen's verdict (domain/intel/address-verdict.ts: the index, and the chain's code); tier 2 reads the transfer index one hop deep in both directions;
 * tiers 3 and 4 run the breadth-first exposure search over incoming and outgoing transfers.
 */

/** The graph search of a direction needs at least this many transfers in that direction. */
export const MIN_GRAPH_TRANSFERS = 1;

export interface TierDeps {
  readonly intel: IntelIndex;
  /** The verdict's time (the sanctions lists' ages count to it); `now` below is the search's monotonic budget clock. */
  readonly clock: Clock;
  /** The chain's answer on contract code for tier 1's smart_contract, as on the light screen (domain/intel/address-verdict.ts). */
  readonly contracts?: ContractCodeReader | undefined;
  readonly transfers: TransferIndex;
  /** Monotonic milliseconds, for the search's time budget. */
  readonly now: () => number;
  /** Yields to other work during a long in-memory search (see ExposureSearchDeps.breathe). */
  readonly breathe?: () => Promise<void>;
}

export interface TierSubject {
  readonly address: string;
  readonly network: Network;
  readonly budget: ExposureBudget;
}

function classifierFor(deps: TierDeps, network: Network): Classify {
  return memoized((address) => labelFromIntel(deps.intel.lookup(address, network)));
}

function summary(activity: AddressActivity): ActivitySummary {
  return {
    incomingTransfers: activity.incoming.transfers,
    outgoingTransfers: activity.outgoing.transfers,
    incomingUsdMicros: activity.incoming.usdMicros,
    outgoingUsdMicros: activity.outgoing.usdMicros,
    unpricedTransfers: activity.incoming.unpricedTransfers + activity.outgoing.unpricedTransfers,
    firstAt: activity.firstAt,
    lastAt: activity.lastAt,
  };
}

/** The versions of every source behind an entity the searches reached: the data of the exposure found. */
export function versionsBehind(deps: Pick<TierDeps, 'intel'>, results: readonly ExposureResult[]): SourceVersion[] {
  const slugs = results.flatMap((result) => result.categories.flatMap((c) => c.sources ?? c.paths.map((p) => p.source)));
  return versionsOf(slugs, deps.intel.datasets());
}

function search(deps: TierDeps, subject: TierSubject, direction: FlowDirection, budget: ExposureBudget, classify: Classify) {
  return searchExposure(
    {
      flows: (...args) => deps.transfers.flows(...args),
      flowsOfMany: deps.transfers.flowsOfMany?.bind(deps.transfers),
      classify,
      now: deps.now,
      ...(deps.breathe ? { breathe: deps.breathe } : {}),
    },
    { address: subject.address, network: subject.network, direction, budget },
  );
}

async function graphTier<T extends 3 | 4>(tier: T, deps: TierDeps, subject: TierSubject): Promise<TierOutcomeOf<T>> {
  const direction: FlowDirection = tier === 3 ? 'in' : 'out';
  const notApplied = (reason: NotAppliedReason) => ({ tier, applied: false, reason, exposure: null }) as TierOutcomeOf<T>;
  const activity = await deps.transfers.activity(subject.address, subject.network);
  if (!activity) return notApplied('no_transaction_history');
  const own = labelFromIntel(deps.intel.lookup(subject.address, subject.network));
  if (own && own.severity < RISK_SEVERITY_FLOOR) return notApplied('service_address');
  const transfers = direction === 'in' ? activity.incoming.transfers : activity.outgoing.transfers;
  if (transfers < MIN_GRAPH_TRANSFERS) return notApplied('too_few_transfers');
  const exposure = await search(deps, subject, direction, subject.budget, classifierFor(deps, subject.network));
  return { tier, applied: true, reason: null, exposure, sourceVersions: versionsBehind(deps, [exposure]) } as TierOutcomeOf<T>;
}

/** Tier 0: sanctions from the lists alone, no question to the chain (also the verdict replay's, docs/ARCHITECTURE.md#verdict-replay). */
export function sanctionsTier(
  deps: Pick<TierDeps, 'intel' | 'clock'>,
  subject: Pick<TierSubject, 'address' | 'network'>,
): TierOutcomeOf<0> {
  const intel = checkedIntel(deps, subject);
  const sdnMatch = buildScreenVerdict(intel).verdict.sanctionsMatch;
  return {
    tier: 0,
    sanctioned: sdnMatch !== null,
    sdnMatch,
    datasetsChecked: deps.intel.datasets().map((d) => `${d.source}@${d.version}`),
    sanctions: intel.sanctions,
  };
}

/** Tier 1: the light screen's verdict (the index, and the chain's code when a reader is given). */
export async function screenTier(
  deps: Pick<TierDeps, 'intel' | 'clock' | 'contracts'>,
  subject: Pick<TierSubject, 'address' | 'network'>,
): Promise<TierOutcomeOf<1>> {
  return { tier: 1, screen: await addressVerdict(deps, subject) };
}

export async function runTier(tier: Tier, deps: TierDeps, subject: TierSubject): Promise<TierOutcome> {
  switch (tier) {
    case 0:
      return sanctionsTier(deps, subject);
    case 1:
      return screenTier(deps, subject);
    case 2: {
      const transferData = { datasets: [...(await deps.transfers.coverage(subject.network)).datasets] };
      const activity = await deps.transfers.activity(subject.address, subject.network);
      if (!activity)
        return { tier, applied: false, reason: 'no_transaction_history', activity: null, incoming: null, outgoing: null, transferData };
      const oneHop = { ...subject.budget, maxHops: 1 };
      const classify = classifierFor(deps, subject.network);
      const incoming = await search(deps, subject, 'in', oneHop, classify);
      const outgoing = await search(deps, subject, 'out', oneHop, classify);
      return {
        tier,
        applied: true,
        reason: null,
        activity: summary(activity),
        incoming,
        outgoing,
        transferData,
        sourceVersions: versionsBehind(deps, [incoming, outgoing]),
      };
    }
    case 3:
      return graphTier(3, deps, subject);
    case 4:
      return graphTier(4, deps, subject);
  }
}
