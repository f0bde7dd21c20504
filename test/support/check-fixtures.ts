import type { CompletedTiers } from '../../domain/address-check/full-verdict.js';
import { runTier } from '../../domain/address-check/tier-runners.js';
import type { TierOutcome } from '../../domain/address-check/tier-outcome.schema.js';
import type { ExposureBudget } from '../../domain/exposure/exposure.schema.js';
import type { Network } from '../../domain/shared/network.js';
import { fixtureIntel, type FixtureClaim } from './intel-fixtures.js';
import { fixtureIndex, type FixtureTransfer } from './transfer-fixtures.js';

export const TEST_BUDGET: ExposureBudget = { maxNodes: 10_000, maxEdges: 100_000, maxHops: 6, timeMs: 60_000, perNodeLimit: 1000 };

/** The five tier outcomes of a check of `address`, computed by the real tier runners over fixture data. */
export async function tiersFor(
  address: string,
  data: {
    claims?: readonly FixtureClaim[];
    transfers?: readonly FixtureTransfer[];
    network?: Network;
    budget?: Partial<ExposureBudget>;
  } = {},
): Promise<CompletedTiers & Record<number, TierOutcome>> {
  const deps = {
    intel: fixtureIntel(data.claims ?? []),
    clock: { now: () => new Date('2025-01-10T00:00:00.000Z') },
    transfers: await fixtureIndex(data.transfers ?? [], data.network ?? 'ETH'),
    now: () => performance.now(),
  };
  const subject = { address, network: data.network ?? 'ETH', budget: { ...TEST_BUDGET, ...data.budget } };
  const outcomes = await Promise.all(([0, 1, 2, 3, 4] as const).map((tier) => runTier(tier, deps, subject)));
  return Object.fromEntries(outcomes.map((o) => [o.tier, o])) as unknown as CompletedTiers & Record<number, TierOutcome>;
}
