import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import { fullCheckReceipt } from '../receipts/verdict-receipts.js';
import { checkStream } from '../../domain/address-check/address-check.events.js';
import type { ExposureBudget } from '../../domain/exposure/exposure.schema.js';
import type { ExploreDirection } from '../../domain/explore/explore.decider.js';
import { fail, hasCode } from '../../domain/shared/errors.js';
import type { Network } from '../../domain/shared/network.js';
import { loadAddressCheck, requestAddressCheck } from '../address-check.commands.js';
import type { CommandDeps } from '../command-deps.js';
import type { FullCheckVerdict } from '../../domain/address-check/full-check-verdict.js';
import { deliverExploreResult, requestExplore, type ExploreAccepted, type ExploreDelivery } from '../explore.commands.js';
import { waitForStream } from '../wait-for-stream.js';

/**
 * The asynchronous products on the x402 channel, paid before they are requested. Their owner is the
 * anonymous payment: `ownerId` is the check or job id itself, so that id is the only credential of the
 * free result endpoints, and only x402-owned work is readable there.
 */
export const x402CheckResultPath = (checkId: string): string => `/check-address-result/${checkId}`;
export const x402ExploreResultPath = (jobId: string): string => `/explore/${jobId}/result`;

/** What a fetch of an x402 full check finds: still running, or the verdict (paid up front, so no charge here). */
export type X402CheckOutcome =
  | { readonly kind: 'running'; readonly checkId: string; readonly requestedAt: string }
  | { readonly kind: 'completed'; readonly verdict: FullCheckVerdict; readonly receipt: string };

export async function startX402AddressCheck(
  deps: CommandDeps,
  input: { checkId: string; address: string; network: Network; budget: ExposureBudget },
): Promise<void> {
  await requestAddressCheck(deps, { ...input, owner: { channel: 'x402', ownerId: input.checkId, keyId: null } });
}

/**
 * The check's outcome, waiting up to `waitMs` for it (woken by its stream: the pipeline runs in the
 * processors): the verdict, running, backend_unavailable when it failed, not_found for an unknown
 * check or one that is not the x402 channel's.
 */
export async function x402AddressCheckOutcome(
  deps: CommandDeps & { receipts: VerdictSigner },
  checkId: string,
  waitMs: number,
): Promise<X402CheckOutcome> {
  const state = await waitForStream(deps, {
    streamId: checkStream(checkId),
    read: async () => (await loadAddressCheck(deps, checkId)).state,
    done: (s) => !s.request || s.status !== 'running',
    waitMs,
  });
  const request = state.request;
  if (!request || request.owner.channel !== 'x402' || request.owner.ownerId !== checkId) throw fail('not_found', 'no such check');
  if (state.status === 'completed' && state.verdict) {
    return { kind: 'completed', verdict: state.verdict, receipt: await fullCheckReceipt(deps, request, state.verdict) };
  }
  if (state.status === 'failed' || state.status === 'failed_timeout') {
    throw fail(
      'backend_unavailable',
      `the check failed (${state.status === 'failed_timeout' ? 'not finished within 15 minutes' : (state.failure?.error ?? 'pipeline error')})`,
    );
  }
  return { kind: 'running', checkId, requestedAt: request.requestedAt };
}

export async function startX402Explore(
  deps: CommandDeps,
  input: { jobId: string; address: string; network: Network; direction: ExploreDirection; budget: ExposureBudget },
): Promise<ExploreAccepted> {
  await requestExplore(deps, { ...input, owner: { channel: 'x402', ownerId: input.jobId, keyId: null } });
  return { kind: 'accepted', jobId: input.jobId };
}

/** The explore report of an x402 job, or running; backend_unavailable when it failed, not_found otherwise. */
export async function x402ExploreOutcome(deps: CommandDeps, jobId: string): Promise<ExploreDelivery> {
  try {
    return await deliverExploreResult(deps, { jobId, owner: { channel: 'x402', ownerId: jobId }, keyId: null });
  } catch (error) {
    if (hasCode(error, 'check_failed')) throw fail('backend_unavailable', error.message.replace('; nothing was charged', ''));
    throw error;
  }
}
