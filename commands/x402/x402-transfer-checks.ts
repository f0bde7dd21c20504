import { awaitTransferCheck, requestTransferCheck } from '../kyt/transfer-check.commands.js';
import type { TransferCheckDeps } from '../kyt/transfer-check-deps.js';
import { fail } from '../../domain/shared/errors.js';
import type { Chain } from '../../domain/shared/network.js';
import type { Outcome } from './x402-checks.js';

/**
 * The transfer check on the x402 channel: paid once per (chain, tx_hash), named by the call that paid it
 * (so every later payer of the same transfer finds it), anonymous (no subgroup: it raises no webhook).
 */
export const x402TransferResultPath = (checkId: string): string => `/check-transfer-result/${checkId}`;

export async function startX402TransferCheck(deps: TransferCheckDeps, input: { checkId: string; chain: Chain; txHash: string }): Promise<void> {
  await requestTransferCheck(deps, { ...input, requester: { channel: 'x402', payer: null } });
}

/**
 * The check's outcome, waiting up to `waitMs`: 200 with the result, 202 `{check_id, status, retry_url}`
 * while it runs, 502 `backend_unavailable` when it failed (the transaction could not be found, decoded or
 * fetched), 404 for an unknown check or one that is not the x402 channel's.
 */
export async function x402TransferOutcome(deps: TransferCheckDeps, checkId: string, waitMs: number): Promise<Outcome> {
  const state = await awaitTransferCheck(deps, checkId, waitMs);
  if (!state.request || state.request.requester.channel !== 'x402') throw fail('not_found', 'no such transfer check');
  if (state.status === 'running') return { status: 202, body: { check_id: checkId, status: 'running', retry_url: x402TransferResultPath(checkId) } };
  if (state.status === 'completed' && state.result) return { status: 200, body: { ...state.result } };
  const why = state.status === 'failed_timeout' ? 'it did not finish within 15 minutes' : (state.failure?.message ?? 'pipeline error');
  throw fail('backend_unavailable', `the transfer check failed: ${why}`);
}
