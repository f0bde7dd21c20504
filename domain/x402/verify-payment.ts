import { getAddress, isAddressEqual, verifyTypedData, type Address, type Hex } from 'viem';
import { fail } from '../shared/errors.js';
import type { Micros } from '../shared/money.js';
import { priceInBaseUnits } from './quote.js';
import type { X402Terms } from './x402-networks.js';
import type { Authorization, PaymentPayload } from './x402-wire.js';

/** Slack for the time the settlement transaction takes to be mined (the reference facilitator uses 6 s). */
export const SETTLEMENT_SLACK_SECONDS = 6;
/** How far past `now + maxTimeoutSeconds` a client's clock may run before validBefore is absurd. */
export const CLOCK_SKEW_SECONDS = 60;

export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

export interface VerifiedPayment {
  readonly payer: Address;
  readonly amount: bigint;
  readonly authorization: Authorization;
  readonly signature: Hex;
}

/**
 * Checks a payment proof against OUR terms, without any I/O: the EIP-712 domain (name, version, chain id,
 * verifying contract) comes from our configuration, never from the client's `accepted.extra`. Codes:
 * a forged or foreign proof is `payment_invalid`, a smaller amount `payment_underpaid`, a validBefore in
 * the past (or too close to settle) `payment_expired`. Amounts must be exact: an overpayment is refused
 * rather than taken.
 */
export async function verifyPaymentLocally(
  payment: PaymentPayload,
  input: { terms: X402Terms; priceMicros: Micros; nowSeconds: number },
): Promise<VerifiedPayment> {
  const { terms, nowSeconds } = input;
  const { accepted } = payment;
  const { authorization, signature } = payment.payload;
  if (accepted.scheme !== 'exact') throw fail('payment_invalid', `scheme "${accepted.scheme}" is not accepted; pay with scheme "exact"`);
  if (accepted.network !== terms.network.caip2) {
    throw fail('payment_invalid', `network ${accepted.network} is not accepted; pay on ${terms.network.caip2}`);
  }
  if (!isAddressEqual(accepted.asset as Address, terms.network.asset)) {
    throw fail('payment_invalid', `asset ${accepted.asset} is not accepted; pay in ${terms.network.asset}`);
  }
  if (!(await signatureIsValid(authorization, signature as Hex, terms))) {
    throw fail('payment_invalid', 'the signature does not verify for this authorization under our EIP-712 domain');
  }
  if (!isAddressEqual(authorization.to as Address, terms.payTo)) {
    throw fail('payment_invalid', `the authorization pays ${authorization.to}, not ${terms.payTo}`);
  }
  const amount = BigInt(authorization.value);
  const price = priceInBaseUnits(input.priceMicros);
  if (amount < price) throw fail('payment_underpaid', `the authorization is for ${amount} base units; this call costs ${price}`);
  if (amount > price) throw fail('payment_invalid', `the authorization is for ${amount} base units; this call costs exactly ${price}`);
  const validBefore = BigInt(authorization.validBefore);
  if (validBefore <= BigInt(nowSeconds)) throw fail('payment_expired', `validBefore ${validBefore} is in the past`);
  if (validBefore < BigInt(nowSeconds + SETTLEMENT_SLACK_SECONDS)) {
    throw fail('payment_expired', `validBefore ${validBefore} expires before the payment can be settled`);
  }
  if (validBefore > BigInt(nowSeconds + terms.maxTimeoutSeconds + CLOCK_SKEW_SECONDS)) {
    throw fail(
      'payment_invalid',
      `validBefore ${validBefore} is further ahead than the quote's maxTimeoutSeconds (${terms.maxTimeoutSeconds})`,
    );
  }
  if (BigInt(authorization.validAfter) > BigInt(nowSeconds)) {
    throw fail('payment_invalid', `validAfter ${authorization.validAfter} is in the future`);
  }
  return { payer: getAddress(authorization.from), amount, authorization, signature: signature as Hex };
}

async function signatureIsValid(authorization: Authorization, signature: Hex, terms: X402Terms): Promise<boolean> {
  try {
    return await verifyTypedData({
      address: authorization.from as Address,
      domain: { ...terms.network.eip712, chainId: terms.network.chainId, verifyingContract: terms.network.asset },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: authorization.from as Address,
        to: authorization.to as Address,
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
        nonce: authorization.nonce as Hex,
      },
      signature,
    });
  } catch {
    // a signature of the wrong length or an impossible curve point: not a valid proof
    return false;
  }
}
