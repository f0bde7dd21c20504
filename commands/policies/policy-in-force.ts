import { activePolicyOf, policyBookDecider } from '../../domain/policies/policy-book.decider.js';
import { policyBookStream } from '../../domain/policies/policy-book.events.js';
import { STANDARD_POLICY_ID } from '../../domain/policies/policy-book.events.js';
import type { Policy } from '../../domain/kyt/policy.types.js';
import { STANDARD_POLICY } from '../../domain/kyt/standard-policy.js';
import type { Requester } from '../../domain/kyt/transfer-check.events.js';
import type { CommandDeps } from '../command-deps.js';

/**
 * The policy a transfer check applies: its subgroup's active one, read from the subgroup's policy stream
 * (a subgroup that never changed anything has none: the standard policy). x402 checks belong to no
 * subgroup and always apply the standard policy.
 */
export async function policyInForceFor(
  deps: Pick<CommandDeps, 'executor'>,
  requester: Requester,
): Promise<{ policyId: string; policy: Policy }> {
  if (requester.channel !== 'v2') return { policyId: STANDARD_POLICY_ID, policy: STANDARD_POLICY };
  const { state } = await deps.executor.load(policyBookStream(requester.subgroupId), policyBookDecider);
  return activePolicyOf(state);
}
