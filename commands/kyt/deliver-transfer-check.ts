import type { TransferDelivery } from '../../domain/idempotency/keyed-outcomes.js';
import type { TransferCheckState } from '../../domain/kyt/transfer-check.decider.js';
import { fail } from '../../domain/shared/errors.js';
import { chargeCall } from '../billing.commands.js';
import type { CommandDeps } from '../command-deps.js';
import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';
import { transferCheckReceipt } from '../receipts/verdict-receipts.js';

/** What a delivery of a transfer check finds: still running, or the result with what it was charged (typed by its schema, which a replay parses). */
export type { TransferDelivery };

/** A failed check as the client sees it: 502 with why, and no charge. */
export function transferFailure(checkId: string, state: TransferCheckState) {
  const failure = state.failure ?? { code: 'internal_error', message: 'the transfer check failed' };
  const code = failure.code === 'tx_not_found' || failure.code === 'tx_decode_failed' ? failure.code : 'backend_unavailable';
  const message =
    state.status === 'failed_timeout' ? 'the transfer check did not finish within 15 minutes (failed_timeout)' : failure.message;
  return fail(code, message, { check_id: checkId, status: state.status === 'failed_timeout' ? 'failed_timeout' : 'failed' });
}

/**
 * A V2 delivery: running, a failure when failed (never charged), and on completion the result
 * with its billing envelope, charged 0.50 USD or 1 unit on the first delivery only — the charge id is
 * the check id, so the submit's delivery and any number of polls charge it once (later deliveries carry
 * `billing.replay: true`).
 */
export async function deliverTransferCheck(
  deps: CommandDeps & { receipts: VerdictSigner },
  state: TransferCheckState,
  caller: { userId: string; keyId: string },
): Promise<TransferDelivery> {
  const request = state.request;
  if (!request) throw fail('not_found', 'no such transfer check');
  if (state.status === 'running') return { kind: 'running', checkId: request.checkId };
  if (state.status !== 'completed' || !state.verdict) throw transferFailure(request.checkId, state);
  const { billing } = await chargeCall(deps, {
    userId: caller.userId,
    chargeId: request.checkId,
    product: 'check_transfer',
    details: { endpoint: 'POST /v2/check-transfer', keyId: caller.keyId, network: request.chain, subject: request.txHash },
  });
  return { kind: 'completed', verdict: state.verdict, receipt: await transferCheckReceipt(deps, request, state.verdict), billing };
}

/** Whether this V2 caller may see the check: only its owner (anyone else gets 404, never a hint). */
export const ownedBy = (state: TransferCheckState, userId: string): boolean =>
  state.request?.requester.channel === 'v2' && state.request.requester.userId === userId;
