import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import { inspectReceipt } from '../receipts/verdict-receipts.js';
import { PRODUCTS } from '../../domain/billing/products.js';
import { INSPECT_TIMEOUT_MS, inspectDecider, type InspectState } from '../../domain/inspect/inspect.decider.js';
import { inspectStream, type InspectRequest } from '../../domain/inspect/inspect.events.js';
import type { ChargedBilling } from '../../domain/ledger/charged-billing.js';
import type { ChargeDetails } from '../../domain/ledger/ledger.events.js';
import { fail, hasCode, isServiceError, type ServiceError } from '../../domain/shared/errors.js';
import { present } from '../../domain/shared/present.js';
import { chargeCall, readBalance, refundCall } from '../billing.commands.js';
import type { CommandDeps } from '../command-deps.js';
import { inspectCost } from './start-inspect.js';

/**
 * Delivers an inspect's result, to its owner only, and settles its price exactly once (the charge id is
 * the check id). The charge is the sum of the provider runs that ANSWERED: a failed provider is simply
 * not charged, so a call where some providers answered is never refunded. When every provider failed,
 * the call is recorded as charged for all its runs and refunded in full at once (a visible row in the
 * usage and the ledger), and answers 502. An inspect still running 15 minutes after its request is
 * reaped when it is next read: it becomes `failed_timeout` and answers 502, nothing charged.
 */

export const inspectResultUrl = (checkId: string): string => `/v2/inspect/${checkId}/result`;

/** What a delivery of an inspect finds: still running (since `createdAt`), or the finished inspect with what it was charged. */
export type InspectDelivery =
  | { readonly kind: 'running'; readonly checkId: string; readonly createdAt: string }
  | {
      readonly kind: 'completed';
      readonly checkId: string;
      readonly request: InspectRequest;
      readonly state: InspectState;
      readonly receipt: string;
      readonly billing: ChargedBilling;
    };

function chargeDetails(request: InspectRequest, state: InspectState, chargeFailedRuns: boolean): ChargeDetails {
  const runs = state.outcomes.map((o) => ({
    provider: o.provider,
    outcome: o.ok ? 'answered' : `failed: ${o.error}`,
    charged: o.ok || chargeFailedRuns,
  }));
  return {
    endpoint: PRODUCTS.inspect.endpoint,
    keyId: request.keyId,
    network: request.network,
    subject: request.address,
    providers: [
      ...runs,
      ...request.waived.map((provider) => ({ provider, outcome: 'waived: disabled on this service', charged: false })),
      ...request.skipped.map((provider) => ({ provider, outcome: 'skipped: network not covered', charged: false })),
    ],
  };
}

/** Each provider's run as the result (and a failure's details) lists it. */
export function providerEntries(state: InspectState) {
  return Object.fromEntries(
    state.outcomes.map((o) => [
      o.provider,
      o.ok
        ? { ok: true as const, verdict: o.raw, assessment: o.assessment, elapsed_ms: o.elapsedMs }
        : { ok: false as const, error: o.error, elapsed_ms: o.elapsedMs },
    ]),
  );
}

/** Every provider failed: charge what the runs would have cost and refund it whole, then the 502. */
async function settleFailure(deps: CommandDeps, checkId: string, request: InspectRequest, state: InspectState): Promise<ServiceError> {
  const failures = state.outcomes.map((o) => `${o.provider} (${o.ok ? 'answered' : o.error})`).join(', ');
  let charged = true;
  try {
    await chargeCall(deps, {
      userId: request.userId,
      chargeId: checkId,
      product: 'inspect',
      details: chargeDetails(request, state, true),
      ...inspectCost(request.providers.length),
    });
  } catch (error) {
    // backend_unavailable: charged and refunded by an earlier delivery; a 402: there is nothing to refund
    if (isServiceError(error) && ['insufficient_funds', 'monthly_cap_exceeded', 'quota_exceeded'].includes(error.code)) charged = false;
    else if (!hasCode(error, 'backend_unavailable')) throw error;
  }
  const billing = charged
    ? await refundCall(deps, { userId: request.userId, chargeId: checkId, reason: `every provider failed: ${failures}` })
    : (await readBalance(deps, request.userId)).billing;
  return fail('backend_unavailable', `every provider failed (${failures}); the call was not charged (fully refunded)`, {
    check_id: checkId,
    providers: providerEntries(state),
    billing,
  });
}

/** Marks the inspect failed_timeout if it is still running past the cap (the decider re-checks the times). */
async function reapIfOverdue(deps: CommandDeps, checkId: string, state: InspectState): Promise<InspectState> {
  const now = deps.clock.now();
  if (
    state.status !== 'running' ||
    now.getTime() - Date.parse(present(state.request, "a running inspect's request").at) < INSPECT_TIMEOUT_MS
  )
    return state;
  const reaped = await deps.executor.execute(
    inspectStream(checkId),
    inspectDecider,
    { type: 'TimeOutInspect', at: now.toISOString() },
    { commandId: `inspect-timeout:${checkId}` },
    (after: InspectState) => after,
  );
  return reaped.view;
}

/** The result (charged on the first delivery) or running; backend_unavailable when every provider failed, not_found if not the caller's. */
export async function deliverInspect(
  deps: CommandDeps & { receipts: VerdictSigner },
  input: { userId: string; checkId: string },
): Promise<InspectDelivery> {
  const loaded = (await deps.executor.load(inspectStream(input.checkId), inspectDecider)).state;
  const request = loaded.request;
  // Someone else's check is indistinguishable from no check.
  if (!request || request.userId !== input.userId) throw fail('not_found', 'no such inspect');
  const state = await reapIfOverdue(deps, input.checkId, loaded);
  if (state.status === 'running') return { kind: 'running', checkId: input.checkId, createdAt: request.at };
  if (state.status === 'failed') throw await settleFailure(deps, input.checkId, request, state);
  if (state.status === 'failed_timeout') {
    throw fail('backend_unavailable', 'the inspect did not finish within 15 minutes (failed_timeout); nothing was charged', {
      check_id: input.checkId,
      providers: providerEntries(state),
    });
  }
  const answered = state.outcomes.filter((o) => o.ok).length;
  const { billing } = await chargeCall(deps, {
    userId: request.userId,
    chargeId: input.checkId,
    product: 'inspect',
    details: chargeDetails(request, state, false),
    ...inspectCost(answered),
  });
  const audit = present(state.audit, "a completed inspect's audit");
  const receipt = await inspectReceipt(
    deps,
    { ...request, checkId: input.checkId },
    { audit, finishedAt: present(state.finishedAt, 'its finish') },
  );
  return { kind: 'completed', checkId: input.checkId, request, state, receipt, billing };
}
