import type { PaymentPayload, PaymentRequirements, SettlementResponse } from '../x402/x402-wire.js';

/**
 * An x402 facilitator, mirroring the reference `FacilitatorClient` (`/verify`, `/settle`, `/supported`).
 * Adapters: a local one that checks the chain and settles with `transferWithAuthorization` from our own
 * gas wallet, and an HTTP client of a hosted facilitator.
 *
 * Refusals are answers (`isValid: false`, `success: false`, with the facilitator's reason string). An
 * unreachable chain or facilitator rejects with a `backend_unavailable` ServiceError whose details say
 * whether a settlement transaction may have been broadcast (`broadcast: true | false`, `transaction`).
 */
export interface FacilitatorVerifyResponse {
  readonly isValid: boolean;
  readonly invalidReason?: string;
  readonly invalidMessage?: string;
  readonly payer?: string;
}

export interface FacilitatorSupported {
  readonly kinds: readonly {
    readonly x402Version: number;
    readonly scheme: string;
    readonly network: string;
    readonly extra?: Readonly<Record<string, unknown>>;
  }[];
  readonly extensions?: readonly string[];
  readonly signers?: Readonly<Record<string, readonly string[]>>;
}

export type FacilitatorSettleResponse = SettlementResponse & { readonly errorMessage?: string };

export interface Facilitator {
  verify(payment: PaymentPayload, requirements: PaymentRequirements): Promise<FacilitatorVerifyResponse>;
  settle(payment: PaymentPayload, requirements: PaymentRequirements): Promise<FacilitatorSettleResponse>;
  supported(): Promise<FacilitatorSupported>;
}
