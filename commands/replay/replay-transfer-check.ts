import { mergeVersions } from '../../domain/coverage/data-versions.js';
import { sanctionsCoverage } from '../../domain/coverage/sanctions-coverage.js';
import { TAXONOMY } from '../../domain/intel/taxonomy.js';
import { computeComposite } from '../../domain/kyt/composite.js';
import { evaluateFacts, factsOf } from '../../domain/kyt/policy-engine.js';
import type { Policy } from '../../domain/kyt/policy.types.js';
import { transferCheckDecider } from '../../domain/kyt/transfer-check.decider.js';
import { transferCheckStream, type Requester } from '../../domain/kyt/transfer-check.events.js';
import { buildTransferVerdict } from '../../domain/kyt/transfer-result.js';
import type { TransferVerdict } from '../../domain/kyt/transfer-verdict.js';
import { initialPolicyBookState, policyBookDecider, versionOf } from '../../domain/policies/policy-book.decider.js';
import { policyBookStream } from '../../domain/policies/policy-book.events.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import {
  comparableTransferVerdict,
  recordedTransfer,
  transferAddresses,
  type RecordedTransfer,
} from '../../domain/replay/recorded-transfer.js';
import { fail } from '../../domain/shared/errors.js';
import { senderExposures, sendersByValue } from '../kyt/sender-exposures.js';
import { clockAt, type ReplayDeps, type ReplayPlan } from './replay-plan.js';

/** The policy version the check applied: versions are immutable, so it is the one of the verdict's time. */
async function appliedPolicy(
  deps: Pick<ReplayDeps, 'executor'>,
  requester: Requester,
  applied: RecordedTransfer['policy'],
): Promise<Policy> {
  const subgroupId = requester.channel === 'v2' ? requester.subgroupId : null;
  // The standard policy is every subgroup's and the x402 channel's: its versions are not in any book.
  const book = subgroupId ? (await deps.executor.load(policyBookStream(subgroupId), policyBookDecider)).state : initialPolicyBookState();
  const found = versionOf(book, applied.id, applied.version);
  if (!found) throw fail('invalid_state', `the policy version the check applied (${applied.id} ${applied.version}) is not in the log`);
  return { name: found.name, version: found.version, taxonomyVersion: TAXONOMY.version, rules: found.rules };
}

/** The verdict the check would have given: the recorded transaction, legs and prices, the intelligence given. */
async function recomputeVerdict(
  deps: ReplayDeps,
  recorded: RecordedTransfer,
  policy: Policy,
  checkId: string,
  intel: IntelIndex,
  clock: Clock,
): Promise<TransferVerdict> {
  const { tx, legs } = recorded;
  const exposures = await senderExposures(
    { intel, clock, transfers: deps.transfers, monotonicNow: deps.monotonicNow },
    tx.chain,
    sendersByValue(legs),
  );
  const composite = computeComposite(legs, exposures, TAXONOMY);
  const outcome = evaluateFacts(policy, factsOf(composite, recorded.patterns, TAXONOMY));
  const coverage = {
    sanctions: sanctionsCoverage(intel.datasets(), clock.now()),
    snapshot: intel.snapshot(),
    sources: mergeVersions(...[...exposures.values()].map((s) => s.sources)),
    // The transfer data read then is chain data: as recorded.
    transferData: recorded.transferData,
  };
  return buildTransferVerdict({
    checkId,
    tx,
    legs,
    composite,
    patterns: recorded.patterns,
    outcome,
    policy,
    policyId: recorded.policy.id,
    pricing: recorded.pricing,
    coverage,
    checkedAt: recorded.checkedAt,
  });
}

/**
 * A transfer check is recomputed from what its body recorded of the chain (the transaction, its legs and
 * their USD values at the prices then) with the intelligence as of the check and the policy version it
 * applied. Its senders' indirect exposure is searched again in the transfer graph (chain data, final).
 */
export async function transferCheckReplayPlan(deps: ReplayDeps, checkId: string): Promise<ReplayPlan> {
  const stream = transferCheckStream(checkId);
  const { state } = await deps.executor.load(stream, transferCheckDecider);
  const { request, verdict } = state;
  if (state.status !== 'completed' || !request || !verdict) throw fail('not_found', 'no such verdict');
  const recorded = recordedTransfer(verdict);
  const policy = await appliedPolicy(deps, request.requester, recorded.policy);
  return {
    kind: 'transfer_check',
    verdictId: checkId,
    madeAt: recorded.checkedAt,
    given: comparableTransferVerdict(verdict),
    addresses: transferAddresses(verdict),
    verdictEvent: { streamPrefix: stream, isVerdict: (event) => event.streamId === stream && event.type === 'TransferCheckCompleted' },
    recorded: [
      'the transaction, its legs and their USD values (the chain and the prices of the time) replayed as recorded',
      'the senders’ indirect exposure searched again in the transfer graph as it is now',
      ...(recorded.legsComplete ? [] : ['the body listed only the first legs of this transaction: the replay weighs those only']),
      ...(recorded.patterns.length > 0 ? ['patterns replayed as recorded, without their value share'] : []),
    ],
    async recompute(intel, today) {
      const clock = today ?? clockAt(recorded.checkedAt);
      const recomputed = await recomputeVerdict(deps, recorded, policy, checkId, intel, clock);
      const sources = (recomputed.coverage?.sources ?? []).map((s) => ({
        source: s.source,
        version: s.version,
        content_hash: s.contentHash,
        imported_at: s.importedAt,
      }));
      return { value: comparableTransferVerdict(recomputed), sources, sanctions: [] };
    },
  };
}
