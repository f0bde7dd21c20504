import { awaitTransferCheck, loadTransferCheck, requestTransferCheck } from '../kyt/transfer-check.commands.js';
import type { TransferCheckDeps } from '../kyt/transfer-check-deps.js';
import { fail, isServiceError } from '../../domain/shared/errors.js';
import { startTimer } from '../clock-timer.js';
import { transferCheckReceipt } from '../receipts/verdict-receipts.js';
import type { Chain } from '../../domain/shared/network.js';
import type { TransferVerdict } from '../../domain/kyt/transfer-verdict.js';

/**
 * The transfer check on the x402 channel: paid once per (chain, tx_hash), named by the call that paid it
 * (so every later payer of the same transfer finds it), anonymous (no subgroup: it raises no webhook).
 */
export const x402TransferResultPath = (checkId: string): string => `/check-transfer-result/${checkId}`;

/** Checks of a paid transfer run again after a failure at most this many times (a failure is not charged twice, but costs us reads). */
export const MAX_TRANSFER_RERUNS = 3;

/** What a fetch of an x402 transfer check finds: still running, or the result (paid up front). */
export type X402TransferOutcome =
  | { readonly kind: 'running'; readonly checkId: string }
  | { readonly kind: 'completed'; readonly verdict: TransferVerdict; readonly receipt: string };

/**
 * The transaction must exist and be mined before anyone pays for its check: a client-side fact, answered
 * 502 `tx_not_found` (as on V2) before the payment is touched; an unreachable chain endpoint, or one that
 * has not answered within `withinMs` (what the answer's 30 s leave for it), is `backend_unavailable`, also
 * before any settlement.
 */
export async function assertTransferMined(
  deps: TransferCheckDeps,
  target: { chain: Chain; txHash: string },
  withinMs: number,
): Promise<void> {
  const lookup = deps.decoder.decode(target.chain, target.txHash);
  lookup.catch(() => undefined); // one that outlives its time is abandoned, never an unhandled rejection
  let cancel: () => void = () => undefined;
  const late = new Promise<never>((_, reject) => {
    cancel = startTimer(deps.clock, withinMs, () =>
      reject(fail('backend_unavailable', `the ${target.chain} endpoint did not answer within ${(withinMs / 1000).toFixed(1)} s`)),
    );
  });
  try {
    await Promise.race([lookup, late]);
  } catch (error) {
    if (!isServiceError(error)) throw error;
    const unpaid = 'nothing was charged and the proof was not used';
    if (error.code === 'tx_not_found')
      throw fail('tx_not_found', `${error.message}: ${unpaid}; send it again once the transaction is mined`);
    throw fail(error.code, `${error.message}; ${unpaid}`);
  } finally {
    cancel();
  }
}

/**
 * Starts (or finds) the check of a paid transfer and answers its id. The first check is named by the call
 * that paid (`paidBy`); when it failed, the payment still covers the transfer ("one payment per (chain,
 * tx_hash)"), so a later request runs it again under an id derived from `paidBy` (at most
 * MAX_TRANSFER_RERUNS times), free of charge.
 */
export async function startX402TransferCheck(
  deps: TransferCheckDeps,
  input: { paidBy: string; chain: Chain; txHash: string },
): Promise<string> {
  let checkId = input.paidBy;
  for (let rerun = 0; ; rerun++) {
    const state = await loadTransferCheck(deps, checkId);
    if (state.status === 'absent') break;
    const failed = state.status === 'failed' || state.status === 'failed_timeout';
    if (!failed || rerun === MAX_TRANSFER_RERUNS) return checkId;
    checkId = deps.ids.eventId(`x402-transfer-rerun:${input.paidBy}`, rerun);
  }
  const { chain, txHash } = input;
  await requestTransferCheck(deps, { checkId, chain, txHash, requester: { channel: 'x402', payer: null } });
  return checkId;
}

/**
 * The check's outcome, waiting up to `waitMs`: the result, or running; a failure when it failed (`tx_not_found`,
 * `tx_decode_failed`, else `backend_unavailable`), not_found for an unknown check or one that is not the x402 channel's.
 */
export async function x402TransferOutcome(deps: TransferCheckDeps, checkId: string, waitMs: number): Promise<X402TransferOutcome> {
  const state = await awaitTransferCheck(deps, checkId, waitMs);
  if (!state.request || state.request.requester.channel !== 'x402') throw fail('not_found', 'no such transfer check');
  if (state.status === 'running') return { kind: 'running', checkId };
  if (state.status === 'completed' && state.verdict) {
    return { kind: 'completed', verdict: state.verdict, receipt: await transferCheckReceipt(deps, state.request, state.verdict) };
  }
  const why = state.status === 'failed_timeout' ? 'it did not finish within 15 minutes' : (state.failure?.message ?? 'pipeline error');
  // the transaction's own facts (gone after a reorg, unreadable) are not the backend's fault
  const code =
    state.status === 'failed' && (state.failure?.code === 'tx_not_found' || state.failure?.code === 'tx_decode_failed')
      ? state.failure.code
      : 'backend_unavailable';
  throw fail(code, `the transfer check failed: ${why}`);
}
