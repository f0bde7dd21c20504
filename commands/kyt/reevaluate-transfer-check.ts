import { computeComposite, type ValuedLeg } from '../../domain/kyt/composite.js';
import { evaluateFacts, factsOf } from '../../domain/kyt/policy-engine.js';
import { transferCheckDecider } from '../../domain/kyt/transfer-check.decider.js';
import { transferCheckStream } from '../../domain/kyt/transfer-check.events.js';
import type { PatternFinding } from '../../domain/kyt/transfer-patterns.js';
import { TAXONOMY } from '../../domain/intel/taxonomy.js';
import type { ChangeReason } from '../../domain/intel/change-reason.js';
import type { TransferVerdict } from '../../domain/kyt/transfer-verdict.js';
import { policyInForceFor } from '../policies/policy-in-force.js';
import { senderExposures } from './sender-exposures.js';
import type { TransferCheckDeps } from './transfer-check-deps.js';

/**
 * Retroactive exposure for one completed check: its senders, as the check recorded them (address and USD
 * value), are judged again with what the intelligence index and the transfer graph know now, under the
 * subgroup's active policy, without the chain. Only alerts the check has not raised yet (or raises now at
 * a higher level) are recorded, once per intelligence change (transfer-check.decider.ts). Returns how
 * many alerts it raised.
 */
export async function reevaluateTransferCheck(
  deps: TransferCheckDeps,
  input: { checkId: string; changeKey: string; reasons: readonly ChangeReason[] },
): Promise<number> {
  const stream = transferCheckStream(input.checkId);
  const { state } = await deps.executor.load(stream, transferCheckDecider);
  const request = state.request;
  if (state.status !== 'completed' || !state.verdict || request?.requester.channel !== 'v2') return 0;
  if (state.changeKeys.includes(input.changeKey)) return 0;
  const recorded = recordedComposite(state.verdict);
  const senders = recorded.senders.map((s) => s.address);
  const exposures = await senderExposures(deps, request.chain, senders);
  const composite = computeComposite(recorded.legs, exposures, TAXONOMY);
  const facts = factsOf(composite, recorded.patterns, TAXONOMY);
  const { policyId, policy } = await policyInForceFor(deps, request.requester);
  const judged = evaluateFacts(policy, facts);
  if (judged.alerts.length === 0) return 0;
  const { events } = await deps.executor.execute(
    stream,
    transferCheckDecider,
    {
      type: 'ReevaluateTransferCheck',
      changeKey: input.changeKey,
      reasons: input.reasons,
      policy: { id: policyId, version: policy.version },
      facts,
      alerts: judged.alerts,
      at: deps.clock.now().toISOString(),
    },
    { commandId: `transfer-reevaluate:${input.checkId}:${input.changeKey}`, causationId: input.checkId },
  );
  const reevaluated = events.find((event) => event.type === 'TransferCheckReevaluated');
  return reevaluated?.type === 'TransferCheckReevaluated' ? reevaluated.data.alerts.length : 0;
}

/**
 * What a completed verdict recorded of the transfer: one leg per sender carrying the USD it sent (so the
 * senders weigh as they did; none when the check weighed them equally), and the patterns found.
 */
function recordedComposite(verdict: TransferVerdict): {
  senders: readonly { address: string }[];
  legs: ValuedLeg[];
  patterns: PatternFinding[];
} {
  const { senders, weighting, patterns } = verdict.composite;
  const valued = weighting !== 'equal';
  const legs = senders.map((s): ValuedLeg => ({
    kind: 'native',
    token: null,
    symbol: null,
    decimals: null,
    from: s.address,
    to: '',
    amount: '0',
    logIndex: null,
    usdMicros: valued ? s.usdMicros : null,
  }));
  return {
    senders,
    legs,
    patterns: patterns.map((p): PatternFinding => ({
      slug: p.slug,
      anchor: { address: p.address, label: null },
      share: 0,
      usdMicros: 0,
      detail: p.detail,
    })),
  };
}
