import { requireSanctionsList } from '../domain/intel/sanctions-data.js';
import { buildScreenVerdict } from '../domain/intel/screen-verdict.js';
import type { ContractCodeReader } from '../domain/ports/contract-code.port.js';
import type { IntelIndex } from '../domain/ports/intel-index.port.js';
import { fail, isServiceError } from '../domain/shared/errors.js';
import type { Network } from '../domain/shared/network.js';
import { PRODUCTS } from '../domain/billing/products.js';
import { screenSummaryOf } from '../domain/intel/screen-summary.js';
import { assertCanCharge, chargeCall } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';
import type { CallResponse } from './idempotent-call.js';

/** Bumped when a field of the screen body changes meaning. */
export const SCREEN_SCHEMA_VERSION = 1;
export const OWN_ENGINE = 'service';

/**
 * The light screen: sanctions and consensus from the intelligence index, no graph. Charged 1 unit or
 * 0.10 USD whether or not data exists for the address. Without any sanctions list it fails closed
 * (502 backend_unavailable) before charging: "no risk" from no data would release funds. A call that
 * cannot pay is refused before the verdict is computed; the charge then carries the verdict's summary
 * (the account's History reads it), so it is taken after the verdict: a verdict that cannot be produced
 * answers 502 with nothing charged, and a charge refused in between (another call spent the balance)
 * answers 402, the verdict unseen.
 */
export async function screenAddress(
  deps: CommandDeps & { intel: IntelIndex; contracts?: ContractCodeReader },
  input: { userId: string; keyId: string; callId: string; address: string; network: Network },
): Promise<CallResponse> {
  requireSanctionsList(deps.intel);
  const product = PRODUCTS.screen;
  await assertCanCharge(deps, { userId: input.userId, product: 'screen', units: product.units, priceMicros: product.priceMicros });
  let verdict: ScreenVerdictBody;
  try {
    verdict = await screenVerdictOf(deps, input);
  } catch (error) {
    throw isServiceError(error) && error.code === 'backend_unavailable' ? error : fail('backend_unavailable', 'the intelligence backend failed; nothing was charged');
  }
  const { billing } = await chargeCall(deps, {
    userId: input.userId,
    chargeId: input.callId,
    product: 'screen',
    details: {
      endpoint: product.endpoint,
      keyId: input.keyId,
      network: input.network,
      subject: input.address,
      screen: screenSummaryOf(verdict.verdict, verdict.coverage.data_available),
    },
  });
  return { status: 200, body: { ...verdict, billing } };
}

export type ScreenVerdictBody = ReturnType<typeof produceScreenVerdict>;

/**
 * The verdict with the chain's own answer on contract code (eth_getCode) when a reader is configured
 * for the network; the reader never throws and answers null when it cannot tell.
 */
export async function screenVerdictOf(deps: { intel: IntelIndex; contracts?: ContractCodeReader }, input: { address: string; network: Network }) {
  requireSanctionsList(deps.intel);
  const isContract = deps.contracts ? await deps.contracts.isContract(input.address, input.network) : null;
  return produceScreenVerdict(deps.intel, input, isContract);
}

/** The light screen's verdict without any billing: shared by the V2 ledger path and the x402 channel. */
export function produceScreenVerdict(intel: IntelIndex, input: { address: string; network: Network }, isContract: boolean | null = null) {
  const found = intel.lookup(input.address, input.network);
  const result = buildScreenVerdict(isContract === null ? found : { ...found, onChain: { isContract } });
  return {
    schema_version: SCREEN_SCHEMA_VERSION,
    address: input.address,
    network: input.network,
    provider: OWN_ENGINE,
    coverage: result.coverage,
    verdict: result.verdict,
  };
}
