import { present } from '../../domain/shared/present.js';
import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  defineChain,
  http,
  parseAbi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import type { FacilitatorVerifyResponse } from '../../domain/ports/facilitator.port.js';
import { fail } from '../../domain/shared/errors.js';
import type { X402Network } from '../../domain/x402/x402-networks.js';
import type { PaymentPayload } from '../../domain/x402/x402-wire.js';

export const eip3009Abi = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
]);

export function chainOf(network: X402Network, rpcUrl: string) {
  return defineChain({
    id: network.chainId,
    name: network.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export function publicClientFor(network: X402Network, rpcUrl: string, timeoutMs: number): PublicClient {
  return createPublicClient({ chain: chainOf(network, rpcUrl), transport: http(rpcUrl, { retryCount: 1, timeout: timeoutMs }) });
}

/**
 * The on-chain half of verification: the authorization's nonce is still unused and the payer holds the
 * amount. Answers like a facilitator's /verify (reasons of the reference TS facilitator); an unreachable
 * RPC rejects with `backend_unavailable` (nothing was broadcast).
 */
export async function checkOnChain(
  client: PublicClient,
  network: X402Network,
  payment: PaymentPayload,
): Promise<FacilitatorVerifyResponse> {
  const { from, nonce, value } = payment.payload.authorization;
  const payer = from as Address;
  let used: boolean;
  let balance: bigint;
  try {
    [used, balance] = await Promise.all([
      client.readContract({ address: network.asset, abi: eip3009Abi, functionName: 'authorizationState', args: [payer, nonce as Hex] }),
      client.readContract({ address: network.asset, abi: eip3009Abi, functionName: 'balanceOf', args: [payer] }),
    ]);
  } catch (error) {
    const notEip3009 =
      error instanceof BaseError &&
      error.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError);
    if (notEip3009)
      return {
        isValid: false,
        invalidReason: 'invalid_exact_evm_eip3009_not_supported',
        invalidMessage: `${network.asset} is not an EIP-3009 token on this chain`,
        payer,
      };
    throw fail('backend_unavailable', `the chain RPC did not answer: ${firstLine(error)}`, { broadcast: false });
  }
  if (used)
    return {
      isValid: false,
      invalidReason: 'invalid_exact_evm_nonce_already_used',
      invalidMessage: 'the authorization nonce is already used on chain',
      payer,
    };
  if (balance < BigInt(value)) {
    return {
      isValid: false,
      invalidReason: 'invalid_exact_evm_insufficient_balance',
      invalidMessage: `the payer holds ${balance} base units, less than ${value}`,
      payer,
    };
  }
  return { isValid: true, payer };
}

export function firstLine(error: unknown): string {
  return present(
    (error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error)).split('\n')[0],
    "(error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error)).split('\\n')[0]",
  );
}
