import { accountDecider } from '../../domain/accounts/account.decider.js';
import { accountStream } from '../../domain/accounts/account.events.js';
import { PRODUCTS } from '../../domain/billing/products.js';
import { TRANSFER_CHECK_TIMEOUT_MS, transferCheckStream, type Requester } from '../../domain/kyt/transfer-check.events.js';
import { transferCheckDecider, type TransferCheckState } from '../../domain/kyt/transfer-check.decider.js';
import type { TransactionDecoder } from '../../domain/ports/transaction-decoder.port.js';
import { fail } from '../../domain/shared/errors.js';
import type { Chain } from '../../domain/shared/network.js';
import { assertCanCharge } from '../billing.commands.js';
import type { CommandDeps } from '../command-deps.js';
import { waitForStream } from '../wait-for-stream.js';

/**
 * Starting, awaiting and reading transfer checks, for both channels: the V2 routes (bearer key,
 * subgroup, ledger) and the x402 routes (anonymous, paid up front) compose these.
 */

export const transferResultUrl = (checkId: string): string => `/v2/transfer/${checkId}/result`;

/** The subgroup a V2 check belongs to: the key user's first membership; none → 409 kyt_requires_subgroup. */
export async function subgroupOf(deps: CommandDeps, userId: string): Promise<string> {
  const { state } = await deps.executor.load(accountStream(userId), accountDecider);
  const subgroupId = state.memberships[0]?.subgroupId;
  if (!subgroupId)
    throw fail('kyt_requires_subgroup', 'the transfer check needs an organization: this key belongs to a user without a subgroup');
  return subgroupId;
}

/** Records the request; the transfer-check processor picks it up. A repeated check id changes nothing. */
export async function requestTransferCheck(
  deps: CommandDeps & { readonly decoder: TransactionDecoder },
  input: { checkId: string; chain: Chain; txHash: string; requester: Requester },
): Promise<void> {
  if (!deps.decoder.chains().includes(input.chain))
    throw fail('backend_unavailable', `this service has no endpoint configured for ${input.chain}`);
  await deps.executor.execute(
    transferCheckStream(input.checkId),
    transferCheckDecider,
    { type: 'RequestTransferCheck', ...input, at: deps.clock.now().toISOString() },
    { commandId: `request-transfer:${input.checkId}` },
  );
}

/**
 * A V2 submit: 409 without a subgroup, 402 when the account could not pay the 0.50 USD (or 1 unit)
 * the result will cost, then the request. Nothing is charged here.
 */
export async function submitTransferCheck(
  deps: CommandDeps & { readonly decoder: TransactionDecoder },
  input: { checkId: string; chain: Chain; txHash: string; userId: string; keyId: string },
): Promise<void> {
  const subgroupId = await subgroupOf(deps, input.userId);
  const { units, priceMicros } = PRODUCTS.check_transfer;
  await assertCanCharge(deps, { userId: input.userId, product: 'check_transfer', units, priceMicros });
  await requestTransferCheck(deps, {
    checkId: input.checkId,
    chain: input.chain,
    txHash: input.txHash,
    requester: { channel: 'v2', userId: input.userId, keyId: input.keyId, subgroupId },
  });
}

/**
 * The check's state, read from its stream (strongly consistent). A check still running after the
 * 15-minute cap is timed out here, on read (failed_timeout), so a lost pipeline never leaves a client
 * polling forever.
 */
export async function loadTransferCheck(deps: CommandDeps, checkId: string): Promise<TransferCheckState> {
  const { state } = await deps.executor.load(transferCheckStream(checkId), transferCheckDecider);
  if (state.status !== 'running' || !state.request) return state;
  const at = deps.clock.now().toISOString();
  if (Date.parse(at) - Date.parse(state.request.at) < TRANSFER_CHECK_TIMEOUT_MS) return state;
  return timeOutTransferCheck(deps, checkId, at);
}

/** Fails a check still running past the 15-minute cap (failed_timeout); the decider re-checks the cap. */
export async function timeOutTransferCheck(deps: CommandDeps, checkId: string, at: string): Promise<TransferCheckState> {
  const outcome = await deps.executor.execute(
    transferCheckStream(checkId),
    transferCheckDecider,
    { type: 'TimeOutTransferCheck', at },
    { commandId: `timeout-transfer:${checkId}` },
    (state) => state,
  );
  return outcome.view;
}

/** Waits until the check is no longer running or `waitMs` passed (woken by its stream, re-read on the clock). */
export async function awaitTransferCheck(deps: CommandDeps, checkId: string, waitMs: number): Promise<TransferCheckState> {
  return waitForStream(deps, {
    streamId: transferCheckStream(checkId),
    read: () => loadTransferCheck(deps, checkId),
    done: (s) => s.status !== 'running',
    waitMs,
  });
}
