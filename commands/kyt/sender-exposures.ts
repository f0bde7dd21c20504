import { mergeVersions, versionsOf, type SourceVersion } from '../../domain/coverage/data-versions.js';
import { present } from '../../domain/shared/present.js';
import { runTier } from '../../domain/address-check/tier-runners.js';
import { intelOnChain, KYT_EXPOSURE_BUDGET, screeningNetworkOf } from '../../domain/kyt/chain-intel.js';
import { directExposure, type GraphCoverage, type IndirectCategory, type SenderExposure } from '../../domain/kyt/sender-exposure.js';
import { TAXONOMY } from '../../domain/intel/taxonomy.js';
import type { ValuedLeg } from '../../domain/kyt/composite.js';
import type { Chain } from '../../domain/shared/network.js';
import type { TransferCheckDeps } from './transfer-check-deps.js';

type ExposureDeps = Pick<TransferCheckDeps, 'intel' | 'transfers' | 'monotonicNow' | 'clock'>;

/**
 * Indirect exposure of one sender: where its own funds came from, by the full check's breadth-first
 * search over its incoming transfers (tier 3, with the transfer check's smaller budget). Only
 * unattributed senders are traced: an attributed sender is what it is (a sanctioned address, an
 * exchange whose funds are pooled), the same stop rule as the search itself.
 */
async function indirectExposure(
  deps: ExposureDeps,
  address: string,
  chain: Chain,
): Promise<{ indirect: IndirectCategory[]; graph: GraphCoverage; sources: readonly SourceVersion[] }> {
  const network = screeningNetworkOf(chain);
  if (!deps.transfers || !network) return { indirect: [], graph: 'not_available', sources: [] };
  const outcome = await runTier(
    3,
    { intel: deps.intel, clock: deps.clock, transfers: deps.transfers, now: deps.monotonicNow },
    { address, network, budget: KYT_EXPOSURE_BUDGET },
  );
  if (outcome.tier !== 3 || !outcome.applied || !outcome.exposure)
    return {
      indirect: [],
      graph: outcome.tier === 3 && outcome.reason === 'service_address' ? 'not_available' : 'no_history',
      sources: [],
    };
  const exposure = outcome.exposure;
  return {
    indirect: exposure.categories.map((c) => ({ slug: c.slug, share: c.share, hops: c.minHops, paths: c.paths })),
    graph: exposure.complete ? 'analysed' : 'budget_exhausted',
    sources: outcome.sourceVersions ?? [],
  };
}

/**
 * The graph search runs for the largest senders only: a transaction with hundreds of senders (a
 * collection contract, an airdrop sweep) would otherwise cost hundreds of searches. Smaller senders
 * still get their direct exposure; their graph coverage says `skipped`.
 */
export const MAX_TRACED_SENDERS = 20;

/** Distinct senders of the legs, most USD first (then first seen). */
export function sendersByValue(legs: readonly ValuedLeg[]): string[] {
  const usd = new Map<string, number>();
  for (const leg of legs) usd.set(leg.from, (usd.get(leg.from) ?? 0) + (leg.usdMicros ?? 0));
  return [...usd.keys()].sort(
    (a, b) => present(usd.get(b), 'every sender was summed above') - present(usd.get(a), 'every sender was summed above'),
  );
}

/** Direct and indirect exposure of each sender; `senders` most valuable first (see sendersByValue). */
export async function senderExposures(deps: ExposureDeps, chain: Chain, senders: readonly string[]): Promise<Map<string, SenderExposure>> {
  const entries = await Promise.all(
    senders.map(async (address, rank): Promise<[string, SenderExposure]> => {
      const own = directExposure(intelOnChain(deps.intel, address, chain), TAXONOMY);
      const traced =
        own.direct.length > 0
          ? { indirect: [], graph: 'not_available' as const, sources: [] }
          : rank >= MAX_TRACED_SENDERS
            ? { indirect: [], graph: 'skipped' as const, sources: [] }
            : await indirectExposure(deps, address, chain);
      const ownSources = versionsOf(
        own.direct.flatMap((c) => c.sources),
        deps.intel.datasets(),
      );
      return [address, { address, ...own, ...traced, sources: mergeVersions(ownSources, traced.sources) }];
    }),
  );
  return new Map(entries);
}
