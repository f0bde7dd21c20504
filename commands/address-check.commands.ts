import type { CheckAccepted } from '../domain/idempotency/keyed-outcomes.js';
import type { VerdictSigner } from '../domain/ports/verdict-signer.port.js';
import { fullCheckReceipt } from './receipts/verdict-receipts.js';
import { addressCheckDecider, type AddressCheckCommand, type AddressCheckState } from '../domain/address-check/address-check.decider.js';
import { checkStream, type CheckOwner } from '../domain/address-check/address-check.events.js';
import { PRODUCTS } from '../domain/billing/products.js';
import type { ExposureBudget } from '../domain/exposure/exposure.schema.js';
import type { Position } from '../domain/ports/event-store.port.js';
import { fail } from '../domain/shared/errors.js';
import { present } from '../domain/shared/present.js';
import type { Network } from '../domain/shared/network.js';
import { assertCanCharge, chargeCall } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';
import type { FullCheckVerdict } from '../domain/address-check/full-check-verdict.js';
import { asReplay, type ChargedBilling } from '../domain/ledger/charged-billing.js';

/**
 * The address full check's use cases: request (never charges), the pipeline's records (tiers, failures,
 * completion, the reaper), and delivery of the result to its V2 owner, charged once on the first delivery
 * (the charge id is the check id, so the ledger itself refuses a second charge).
 */

/** A full check recorded and waiting for the pipeline (typed by its schema, which a replay parses). */
export type { CheckAccepted };

/** What a poll of a full check finds: still running, or the verdict with what its delivery was charged. */
export type CheckDelivery =
  | { readonly kind: 'running'; readonly checkId: string; readonly requestedAt: string }
  | { readonly kind: 'completed'; readonly verdict: FullCheckVerdict; readonly receipt: string; readonly billing: ChargedBilling };

export const checkResultUrl = (checkId: string): string => `/v2/check-address/${checkId}/result`;

export function loadAddressCheck(deps: CommandDeps, checkId: string): Promise<{ state: AddressCheckState }> {
  return deps.executor.load(checkStream(checkId), addressCheckDecider);
}

export async function requestAddressCheck(
  deps: CommandDeps,
  input: { checkId: string; owner: CheckOwner; address: string; network: Network; budget: ExposureBudget },
): Promise<{ checkId: string; position: Position | null }> {
  const outcome = await deps.executor.execute(
    checkStream(input.checkId),
    addressCheckDecider,
    { type: 'Request', ...input, at: deps.clock.now().toISOString() },
    { commandId: `check-request:${input.checkId}` },
  );
  return { checkId: input.checkId, position: outcome.position };
}

/**
 * POST /v2/check-address: a key that could not pay for the result is refused now (402, no job); otherwise
 * the check is recorded and accepted (read-api says where to poll). `checkId` is the call id, so a replayed
 * Idempotency-Key finds the same check.
 */
export async function submitAddressCheck(
  deps: CommandDeps,
  input: { userId: string; keyId: string; checkId: string; address: string; network: Network; budget: ExposureBudget },
): Promise<CheckAccepted> {
  const product = PRODUCTS.check_address;
  await assertCanCharge(deps, { userId: input.userId, product: 'check_address', units: product.units, priceMicros: product.priceMicros });
  await requestAddressCheck(deps, {
    checkId: input.checkId,
    owner: { channel: 'v2', ownerId: input.userId, keyId: input.keyId },
    address: input.address,
    network: input.network,
    budget: input.budget,
  });
  return { kind: 'accepted', checkId: input.checkId };
}

/** A pipeline step on a check; every step is idempotent (the decider ignores what is already recorded). */
export async function recordCheckStep(deps: CommandDeps, checkId: string, command: AddressCheckCommand, commandId: string): Promise<void> {
  await deps.executor.execute(checkStream(checkId), addressCheckDecider, command, { commandId });
}

/**
 * GET /v2/check-address/{check_id}/result for its V2 owner: running (no charge), or completed with the
 * verdict, charged on the first delivery and the same billing (replayed) afterwards; check_failed
 * when it failed or timed out (never charged); 404 for an unknown check or another user's, never 403.
 */
export async function deliverAddressCheckResult(
  deps: CommandDeps & { receipts: VerdictSigner },
  input: { checkId: string; userId: string; keyId: string },
): Promise<CheckDelivery> {
  const { state } = await loadAddressCheck(deps, input.checkId);
  const request = state.request;
  if (!request || request.owner.channel !== 'v2' || request.owner.ownerId !== input.userId) throw fail('not_found', 'no such check');
  switch (state.status) {
    case 'running':
    case 'none':
      return { kind: 'running', checkId: input.checkId, requestedAt: request.requestedAt };
    case 'failed':
    case 'failed_timeout':
      throw fail('check_failed', `the check failed (${state.failure?.error ?? 'pipeline error'}); nothing was charged`, {
        check_id: input.checkId,
        status: state.status,
      });
    case 'completed':
      break;
  }
  const verdict = present(state.verdict, "the completed check's verdict");
  const receipt = await fullCheckReceipt(deps, request, verdict);
  // Delivered before: the same charge, as a replay. (A delivery recorded without billing charges again below, which the
  // ledger finds by the check id: nothing is taken twice.)
  if (state.delivered?.billing) return { kind: 'completed', verdict, receipt, billing: asReplay(state.delivered.billing) };
  const { billing, duplicate } = await chargeCall(deps, {
    userId: input.userId,
    chargeId: input.checkId,
    product: 'check_address',
    details: { endpoint: PRODUCTS.check_address.endpoint, keyId: input.keyId, network: request.network, subject: request.address },
  });
  await recordCheckStep(
    deps,
    input.checkId,
    { type: 'RecordDelivery', billing: { ...billing, replay: false }, at: deps.clock.now().toISOString() },
    `check-deliver:${input.checkId}`,
  );
  return { kind: 'completed', verdict, receipt, billing: duplicate ? asReplay(billing) : billing };
}
