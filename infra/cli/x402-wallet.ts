import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { getAddress, toHex, type Hex, type LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fail } from '../../domain/shared/errors.js';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../../domain/x402/verify-payment.js';
import { X402_NETWORKS, type X402Network } from '../../domain/x402/x402-networks.js';
import type { PaymentPayload, PaymentRequirements } from '../../domain/x402/x402-wire.js';

/**
 * The paying side of x402 for the CLI's MCP proxy: a local key, and EIP-3009 proofs signed under the
 * USDC domain this code knows for the quoted network (never the domain a server sends), as @x402/evm's
 * client signs them.
 */

/** The wallet of a key file (0x + 64 hex digits, surrounding whitespace ignored). The key never appears in an error. */
export async function walletFromKeyFile(path: string): Promise<LocalAccount> {
  let text: string;
  try {
    text = (await readFile(path, 'utf8')).trim();
  } catch {
    throw fail('bad_request', `cannot read the wallet key file ${path}`);
  }
  const key = (text.startsWith('0x') ? text : `0x${text}`) as Hex;
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw fail('bad_request', `the wallet key file ${path} does not hold a private key (0x followed by 64 hex digits)`);
  return privateKeyToAccount(key);
}

/** The USDC network a requirement is payable on (scheme exact, a known network and its USDC), or null. */
export function knownUsdcOf(requirement: PaymentRequirements): X402Network | null {
  if (requirement.scheme !== 'exact') return null;
  const network = Object.values(X402_NETWORKS).find((n) => n.caip2 === requirement.network);
  return network && network.asset.toLowerCase() === requirement.asset.toLowerCase() ? network : null;
}

/** A v2 payment payload for exactly this requirement, valid from now for the quote's `maxTimeoutSeconds`. */
export async function signPaymentFor(
  account: LocalAccount,
  network: X402Network,
  requirement: PaymentRequirements,
  resource: PaymentPayload['resource'],
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<PaymentPayload> {
  const authorization = {
    from: account.address,
    to: getAddress(requirement.payTo),
    value: BigInt(requirement.amount),
    validAfter: 0n,
    validBefore: BigInt(nowSeconds + requirement.maxTimeoutSeconds),
    nonce: toHex(randomBytes(32)),
  };
  const signature = await account.signTypedData({
    domain: { name: network.eip712.name, version: network.eip712.version, chainId: network.chainId, verifyingContract: network.asset },
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: authorization,
  });
  return {
    x402Version: 2,
    ...(resource ? { resource } : {}),
    accepted: requirement,
    payload: {
      signature,
      authorization: {
        ...authorization,
        value: authorization.value.toString(),
        validAfter: '0',
        validBefore: authorization.validBefore.toString(),
      },
    },
  };
}
