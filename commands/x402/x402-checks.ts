import { checkStream } from '../../domain/address-check/address-check.events.js';
import type { ExposureBudget } from '../../domain/exposure/exposure.schema.js';
import type { ExploreDirection } from '../../domain/explore/explore.decider.js';
import { fail, hasCode } from '../../domain/shared/errors.js';
import type { Network } from '../../domain/shared/network.js';
import { loadAddressCheck, requestAddressCheck } from '../address-check.commands.js';
import type { CommandDeps } from '../command-deps.js';
import { deliverExploreResult, requestExplore } from '../explore.commands.js';
import { waitForStream } from '../wait-for-stream.js';

/**
 * The asynchronous products on the x402 channel, paid before they are requested. Their owner is the
 * anonymous payment: `ownerId` is the check or job id itself, so that id is the only credential of the
 * free result endpoints, and only x402-owned work is readable there.
 */
export const x402CheckResultPath = (checkId: string): string => `/check-address-result/${checkId}`;
export const x402ExploreResultPath = (jobId: string): string => `/explore/${jobId}/result`;

export interface Outcome {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export async function startX402AddressCheck(deps: CommandDeps, input: { checkId: string; address: string; network: Network; budget: ExposureBudget }): Promise<void> {
  await requestAddressCheck(deps, { ...input, owner: { channel: 'x402', ownerId: input.checkId, keyId: null } });
}

/**
 * The check's outcome, waiting up to `waitMs` for it (woken by its stream: the pipeline runs in the
 * processors): 200 with the verdict, 202 while it runs, 502 when it failed, 404 for an unknown
 * check or one that is not the x402 channel's.
 */
export async function x402AddressCheckOutcome(deps: CommandDeps, checkId: string, waitMs: number): Promise<Outcome> {
  const state = await waitForStream(deps, {
    streamId: checkStream(checkId),
    read: async () => (await loadAddressCheck(deps, checkId)).state,
    done: (s) => !s.request || s.status !== 'running',
    waitMs,
  });
  const request = state.request;
  if (!request || request.owner.channel !== 'x402' || request.owner.ownerId !== checkId) throw fail('not_found', 'no such check');
  if (state.status === 'completed' && state.result) return { status: 200, body: { ...state.result } };
  if (state.status === 'failed' || state.status === 'failed_timeout') {
    throw fail('backend_unavailable', `the check failed (${state.status === 'failed_timeout' ? 'not finished within 15 minutes' : (state.failure?.error ?? 'pipeline error')})`);
  }
  return { status: 202, body: { check_id: checkId, status: 'running', result_url: x402CheckResultPath(checkId), requested_at: request.requestedAt } };
}

export async function startX402Explore(
  deps: CommandDeps,
  input: { jobId: string; address: string; network: Network; direction: ExploreDirection; budget: ExposureBudget },
): Promise<Outcome> {
  await requestExplore(deps, { ...input, owner: { channel: 'x402', ownerId: input.jobId, keyId: null } });
  return { status: 202, body: { job_id: input.jobId, status: 'running', result_url: x402ExploreResultPath(input.jobId) } };
}

/** The explore report of an x402 job: 200, 202 while it runs, 502 when it failed, 404 otherwise. */
export async function x402ExploreOutcome(deps: CommandDeps, jobId: string): Promise<Outcome> {
  try {
    const response = await deliverExploreResult(deps, { jobId, owner: { channel: 'x402', ownerId: jobId }, keyId: null, urlPrefix: '' });
    return { status: response.status, body: response.body as Record<string, unknown> };
  } catch (error) {
    if (hasCode(error, 'check_failed')) throw fail('backend_unavailable', error.message.replace('; nothing was charged', ''));
    throw error;
  }
}
