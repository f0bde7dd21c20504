import { requireSanctionsList } from '../domain/intel/sanctions-data.js';
import { addressVerdict, type VerdictSources } from '../domain/intel/address-verdict.js';
import type { ContractCodeReader } from '../domain/ports/contract-code.port.js';
import type { IntelIndex } from '../domain/ports/intel-index.port.js';
import { fail, isServiceError } from '../domain/shared/errors.js';
import type { Network } from '../domain/shared/network.js';
import { PRODUCTS } from '../domain/billing/products.js';
import { screenSummaryOf } from '../domain/intel/screen-summary.js';
import { assertCanCharge, chargeCall } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';
import type { ScreenedAddress, ScreenOutcome } from '../domain/idempotency/keyed-outcomes.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { VerdictSigner } from '../domain/ports/verdict-signer.port.js';
import { screenStatement, type VerdictContext } from '../domain/receipts/verdict-statements.js';
import { detachedReceipt } from '../domain/receipts/detached-receipt.js';
import type { VerdictStatement } from '../domain/receipts/verdict-statement.js';

/**
 * A light screen that answered: the verdict, its signed receipt and what it was charged
 * (read-api/presenters/screen.presenter.ts shapes the body); typed by its schema, which a replay parses.
 */
export type { ScreenedAddress, ScreenOutcome };

export const OWN_ENGINE = 'service';

/**
 * The light screen: sanctions and consensus from the intelligence index, no graph. Charged 1 unit or
 * 0.10 USD whether or not data exists for the address. Without any sanctions list it fails closed
 * (502 backend_unavailable) before charging: "no risk" from no data would release funds. A call that
 * cannot pay is refused before the verdict is computed; the charge then carries the verdict's summary
 * (the account's History reads it), so it is taken after the verdict: a verdict that cannot be produced
 * answers 502 with nothing charged, and a charge refused in between (another call spent the balance)
 * answers 402, the verdict unseen. The charge keeps the summary and the receipt (its statement and detached
 * JWS), so the verdict can be read back later (GET /v2/verdicts/{id}).
 */
export async function screenAddress(
  deps: CommandDeps & { intel: IntelIndex; contracts?: ContractCodeReader; receipts: VerdictSigner },
  input: { userId: string; keyId: string; callId: string; address: string; network: Network },
): Promise<ScreenOutcome> {
  requireSanctionsList(deps.intel);
  const product = PRODUCTS.screen;
  await assertCanCharge(deps, { userId: input.userId, product: 'screen', units: product.units, priceMicros: product.priceMicros });
  let verdict: ScreenedAddress;
  try {
    verdict = await screenVerdictOf(deps, input);
  } catch (error) {
    throw isServiceError(error) && error.code === 'backend_unavailable'
      ? error
      : fail('backend_unavailable', 'the intelligence backend failed; nothing was charged');
  }
  // Signed before the charge so the charge keeps it (GET /v2/verdicts/{id}); a refused charge discards it unseen.
  const signed = await signedScreen(deps, { verdictId: input.callId, caller: { kind: 'api_key', id: input.keyId } }, verdict);
  const { billing } = await chargeCall(deps, {
    userId: input.userId,
    chargeId: input.callId,
    product: 'screen',
    details: {
      endpoint: product.endpoint,
      keyId: input.keyId,
      network: input.network,
      subject: input.address,
      screen: screenSummaryOf(verdict.screen),
      receipt: detachedReceipt(signed.receipt, signed.statement),
    },
  });
  return { kind: 'completed', verdict, receipt: signed.receipt, verdictId: input.callId, billing };
}

/**
 * The screen's receipt: its domain verdict signed as of now (docs/ARCHITECTURE.md#verdict-receipts). The
 * verdict id is the call's id; the input hashed is the address and network asked about.
 */
export async function screenReceipt(
  deps: { clock: Clock; receipts: VerdictSigner },
  who: Pick<VerdictContext, 'verdictId' | 'caller'>,
  verdict: ScreenedAddress,
): Promise<string> {
  return (await signedScreen(deps, who, verdict)).receipt;
}

/** The screen's receipt (compact JWS) and the statement it signs, which its charge keeps beside the detached JWS. */
async function signedScreen(
  deps: { clock: Clock; receipts: VerdictSigner },
  who: Pick<VerdictContext, 'verdictId' | 'caller'>,
  verdict: ScreenedAddress,
): Promise<{ receipt: string; statement: VerdictStatement }> {
  const subject = { address: verdict.subject.address, network: verdict.subject.network };
  const statement = screenStatement({ ...who, input: subject, issuedAt: deps.clock.now().toISOString() }, subject, verdict.screen);
  return { receipt: await deps.receipts.sign(statement), statement };
}

/** The light screen's verdict without any billing (the one verdict path, domain/intel/address-verdict.ts): the V2 ledger path, the x402 channel and the CLI. */
export async function screenVerdictOf(deps: VerdictSources, input: { address: string; network: Network }): Promise<ScreenedAddress> {
  requireSanctionsList(deps.intel);
  return { subject: { address: input.address, network: input.network }, engine: OWN_ENGINE, screen: await addressVerdict(deps, input) };
}
