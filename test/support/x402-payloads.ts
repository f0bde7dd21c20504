import { toHex, type Address, type LocalAccount } from 'viem';
import { randomBytes } from 'node:crypto';
import { requirementFor } from '../../domain/x402/quote.js';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../../domain/x402/verify-payment.js';
import type { X402Terms } from '../../domain/x402/x402-networks.js';
import type { PaymentPayload } from '../../domain/x402/x402-wire.js';

/**
 * A v2 payment payload signed like @x402/fetch signs one (EIP-3009 typed data under the network's USDC
 * domain), for tests that need proofs without HTTP; every field can be overridden to forge a bad one.
 */
export async function signPayment(
  account: LocalAccount,
  terms: X402Terms,
  options: {
    priceMicros?: number;
    value?: bigint;
    to?: Address;
    validAfter?: bigint;
    validBefore?: bigint;
    nowSeconds?: number;
    domainName?: string;
    chainId?: number;
  } = {},
): Promise<PaymentPayload> {
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const accepted = requirementFor(terms, options.priceMicros ?? 100_000);
  const authorization = {
    from: account.address,
    to: options.to ?? terms.payTo,
    value: options.value ?? BigInt(accepted.amount),
    validAfter: options.validAfter ?? 0n,
    validBefore: options.validBefore ?? BigInt(now + terms.maxTimeoutSeconds),
    nonce: toHex(randomBytes(32)),
  };
  const signature = await account.signTypedData({
    domain: {
      name: options.domainName ?? terms.network.eip712.name,
      version: terms.network.eip712.version,
      chainId: options.chainId ?? terms.network.chainId,
      verifyingContract: terms.network.asset,
    },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  return {
    x402Version: 2,
    accepted,
    payload: {
      authorization: {
        ...authorization,
        value: authorization.value.toString(),
        validAfter: authorization.validAfter.toString(),
        validBefore: authorization.validBefore.toString(),
      },
      signature,
    },
  };
}
