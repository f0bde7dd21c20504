import { parseSignature, size, type Address, type Hex, type PublicClient } from 'viem';
import type { Clock } from '../../domain/ports/clock.port.js';
import type { Facilitator, FacilitatorSettleResponse } from '../../domain/ports/facilitator.port.js';
import { isServiceError } from '../../domain/shared/errors.js';
import { verifyPaymentLocally } from '../../domain/x402/verify-payment.js';
import type { X402Network } from '../../domain/x402/x402-networks.js';
import type { PaymentPayload } from '../../domain/x402/x402-wire.js';
import { checkOnChain, eip3009Abi } from './chain-reader.js';
import { CallRefused, type GasWallet } from './gas-wallet.js';
import { createPendingSettlements } from './pending-settlements.js';

/**
 * The facilitator run by the service itself: verify = the proof against the requirements (EIP-712 with the
 * network's own domain) plus the chain's state; settle = `transferWithAuthorization` on the token, sent
 * and paid for by our gas wallet, then the receipt. Reasons are those of the reference TS facilitator.
 */
export function createLocalFacilitator(options: {
  network: X402Network;
  client: PublicClient;
  wallet: GasWallet;
  clock: Clock;
}): Facilitator {
  const { network, client, wallet } = options;
  // settlements in flight per payer, so that proofs the payer cannot all cover are refused before broadcast
  const inFlight = createPendingSettlements({ client, asset: network.asset, clock: options.clock });

  return {
    async verify(payment, requirements) {
      const payer = payment.payload.authorization.from;
      if (requirements.network !== network.caip2) {
        return {
          isValid: false,
          invalidReason: 'invalid_exact_evm_network_mismatch',
          invalidMessage: `this facilitator settles on ${network.caip2}`,
          payer,
        };
      }
      try {
        await verifyPaymentLocally(payment, {
          terms: { network, payTo: requirements.payTo as Address, maxTimeoutSeconds: requirements.maxTimeoutSeconds },
          priceMicros: Number(requirements.amount),
          nowSeconds: Math.floor(options.clock.now().getTime() / 1000),
        });
      } catch (error) {
        if (!isServiceError(error)) throw error;
        return { isValid: false, invalidReason: error.code, invalidMessage: error.message, payer };
      }
      return checkOnChain(client, network, payment);
    },

    async settle(payment, requirements) {
      const payer = payment.payload.authorization.from;
      const answer = (fields: Omit<FacilitatorSettleResponse, 'network' | 'payer'>): FacilitatorSettleResponse => ({
        ...fields,
        network: requirements.network,
        payer,
      });
      const admission = inFlight.admissionFor(payment);
      let hash: Hex;
      try {
        hash = await wallet.submit(
          { address: network.asset, abi: eip3009Abi, functionName: 'transferWithAuthorization', args: settlementArgs(payment) },
          admission,
        );
      } catch (error) {
        if (!(error instanceof CallRefused)) throw error;
        return answer({ success: false, transaction: '', errorReason: revertReason(error.message), errorMessage: error.message });
      }
      // mined either way once the receipt is known; without one, the entry stays until the authorization expires
      const status = await wallet.waitForReceipt(hash);
      admission.settled();
      if (status === 'reverted') return answer({ success: false, transaction: hash, errorReason: 'invalid_exact_evm_transaction_failed' });
      return answer({ success: true, transaction: hash });
    },

    async supported() {
      return {
        kinds: [{ x402Version: 2, scheme: 'exact', network: network.caip2 }],
        extensions: [],
        signers: { 'eip155:*': [wallet.address] },
      };
    },
  };
}

/** The v,r,s overload for 65-byte EOA signatures (every USDC version has it), `bytes` for the others. */
function settlementArgs(payment: PaymentPayload): readonly unknown[] {
  const { from, to, value, validAfter, validBefore, nonce } = payment.payload.authorization;
  const head = [from, to, BigInt(value), BigInt(validAfter), BigInt(validBefore), nonce];
  const signature = payment.payload.signature as Hex;
  if (size(signature) !== 65) return [...head, signature];
  const { r, s, v, yParity } = parseSignature(signature);
  return [...head, Number(v ?? BigInt(yParity + 27)), r, s];
}

/** FiatToken revert strings as the reference facilitator's reasons. */
function revertReason(message: string): string {
  if (/used or canceled|auth used/i.test(message)) return 'invalid_exact_evm_nonce_already_used';
  if (/expired/i.test(message)) return 'invalid_exact_evm_payload_authorization_valid_before';
  if (/not yet valid/i.test(message)) return 'invalid_exact_evm_payload_authorization_valid_after';
  if (/balance/i.test(message)) return 'invalid_exact_evm_insufficient_balance';
  if (/signature/i.test(message)) return 'invalid_exact_evm_signature';
  return 'invalid_exact_evm_transaction_simulation_failed';
}
