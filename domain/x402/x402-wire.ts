import { present } from '../shared/present.js';
import { z } from 'zod';
import { fail } from '../shared/errors.js';

/**
 * The x402 v2 wire format (coinbase/x402 specs, as produced by @x402/fetch 2.27): the quote a 402 carries
 * in `PAYMENT-REQUIRED`, the payment payload a client sends in `PAYMENT-SIGNATURE` / `X-PAYMENT`, and the
 * settlement receipt in `PAYMENT-RESPONSE` / `X-PAYMENT-RESPONSE`. Headers hold standard base64 (with `=`
 * padding) of UTF-8 JSON.
 */

export const X402_VERSION = 2;

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an 0x address of 20 bytes');
const uint256 = z.string().regex(/^\d{1,78}$/, 'a decimal integer string');

export const paymentRequirementsSchema = z.object({
  scheme: z.string(),
  network: z.string(),
  asset: address,
  amount: uint256,
  payTo: address,
  maxTimeoutSeconds: z.number().int(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentRequirements = z.infer<typeof paymentRequirementsSchema>;

export interface PaymentRequired {
  readonly x402Version: typeof X402_VERSION;
  readonly error: string;
  readonly resource: { readonly url: string; readonly description: string; readonly mimeType: string };
  readonly accepts: readonly PaymentRequirements[];
}

export const authorizationSchema = z.object({
  from: address,
  to: address,
  value: uint256,
  validAfter: uint256,
  validBefore: uint256,
  nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'an 0x hex string of 32 bytes'),
});
export type Authorization = z.infer<typeof authorizationSchema>;

export const paymentPayloadSchema = z.object({
  x402Version: z.literal(X402_VERSION),
  accepted: paymentRequirementsSchema,
  payload: z.object({
    authorization: authorizationSchema,
    signature: z.string().regex(/^0x([0-9a-fA-F]{2})+$/, 'an 0x hex string'),
  }),
  resource: z.object({ url: z.string() }).loose().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentPayload = z.infer<typeof paymentPayloadSchema>;

export interface SettlementResponse {
  readonly success: boolean;
  readonly transaction: string;
  readonly network: string;
  readonly payer?: string;
  readonly errorReason?: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function encodeHeaderJson(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Decodes a payment header; anything but base64 of a v2 EIP-3009 payload is `payment_invalid`. */
export function decodePaymentHeader(header: string): PaymentPayload {
  const text = header.trim();
  if (text === '' || !BASE64.test(text)) throw fail('payment_invalid', 'the payment header is not standard base64');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0))));
  } catch {
    throw fail('payment_invalid', 'the payment header is not base64 of UTF-8 JSON');
  }
  const version = (json as { x402Version?: unknown } | null)?.x402Version;
  if (version !== X402_VERSION) {
    throw fail(
      'payment_invalid',
      `x402Version ${JSON.stringify(version ?? null)} is not accepted: pay the v2 quote of the payment-required header`,
    );
  }
  const parsed = paymentPayloadSchema.safeParse(json);
  if (!parsed.success) {
    const issue = present(parsed.error.issues[0], 'a failed parse has at least one issue');
    throw fail('payment_invalid', `the payment payload is malformed at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}
