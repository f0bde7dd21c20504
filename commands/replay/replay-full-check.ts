import { sourceRowsOf } from '../../domain/replay/verdict-replay.js';
import { addressCheckDecider } from '../../domain/address-check/address-check.decider.js';
import { checkStream } from '../../domain/address-check/address-check.events.js';
import { buildFullCheckVerdict, type CompletedTiers } from '../../domain/address-check/full-verdict.js';
import { sanctionsTier, screenTier } from '../../domain/address-check/tier-runners.js';
import { fail } from '../../domain/shared/errors.js';
import type { CommandDeps } from '../command-deps.js';
import { clockAt, type ReplayPlan } from './replay-plan.js';

/**
 * A full check is recomputed from its recorded tier outcomes: tiers 0 and 1 (sanctions and the address's
 * own intelligence) again from the index; tiers 2 to 4 (its transfers and the exposure found through
 * them) as recorded, since they are read from the chain, and the labels met on the way were those of the
 * verdict's time. The chain's answer on contract code is not asked again. What is compared is the domain
 * verdict (CheckCompleted's), field by field under its own names (`risk.level`, `intel.labels[2].source`).
 */
export async function fullCheckReplayPlan(deps: Pick<CommandDeps, 'executor'>, checkId: string): Promise<ReplayPlan> {
  const stream = checkStream(checkId);
  const { state } = await deps.executor.load(stream, addressCheckDecider);
  const { request, verdict } = state;
  if (state.status !== 'completed' || !request || !verdict) throw fail('not_found', 'no such verdict');
  const recordedTiers = state.tiers as unknown as CompletedTiers;
  const subject = { address: request.address, network: request.network };
  const checkSubject = { checkId, address: request.address, network: request.network, requestedAt: request.requestedAt };
  return {
    kind: 'full_check',
    verdictId: checkId,
    madeAt: verdict.completedAt,
    given: verdict,
    addresses: [request.address],
    verdictEvent: { streamPrefix: stream, isVerdict: (event) => event.streamId === stream && event.type === 'CheckCompleted' },
    recorded: [
      'tiers 2 to 4 (transfers and exposure) replayed as recorded: they were read from the chain, with the labels of the time',
      'the chain’s answer on contract code is not asked again',
    ],
    async recompute(intel, today) {
      // Each tier ran at its own time (the lists' ages count to it): as of then, the time it recorded.
      const tier0At = recordedTiers[0].sanctions?.at ?? verdict.completedAt;
      const tier1At = recordedTiers[1].screen.coverage.sanctions?.at ?? tier0At;
      const tiers: CompletedTiers = {
        ...recordedTiers,
        0: sanctionsTier({ intel, clock: today ?? clockAt(tier0At) }, subject),
        1: await screenTier({ intel, clock: today ?? clockAt(tier1At) }, subject),
      };
      const recomputed = buildFullCheckVerdict(checkSubject, tiers, verdict.completedAt);
      const match = recomputed.intel.sdnMatch;
      return { value: recomputed, sources: sourceRowsOf(recomputed.dataVersions.sources), sanctions: match ? [match] : [] };
    },
  };
}
