import { z } from 'zod';
import { jwksSchema } from './receipts.js';
import { fullCheckResultSchema } from './full-check-result.schema.js';
import { exploreReportBodySchema } from './explore.js';
import type { ErrorCode } from '../../domain/shared/errors.js';
import { paymentPayloadSchema, paymentRequirementsSchema } from '../../domain/x402/x402-wire.js';
import { coverageSchema, verdictSchema } from './screen-verdict.body.js';
import { HTTP_STATUS, X402_PUBLIC_5XX } from '../errors.js';
import { addressField, chainField, isoTimestamp, networkField, networkOut, txHashField, receiptField } from './common.js';
import { closingBody, DESCRIPTIONS, errorEnvelope } from './errors.js';
import { transferResultSchema } from './transfer.js';

/**
 * The x402 app's document (GET /openapi.json on the x402 port): its paid and free routes, the quote a 402
 * carries in `payment-required`, the proof a client sends in `X-PAYMENT`, the receipt, and the channel's
 * error codes (read-api/errors.ts x402ErrorBody).
 */

/** The decoded JSON of the `payment-required` header (domain/x402/quote.ts). */
export const paymentRequiredSchema = z.strictObject({
  x402Version: z.literal(2),
  error: z.string(),
  resource: z.strictObject({ url: z.string(), description: z.string(), mimeType: z.string() }),
  accepts: z.array(paymentRequirementsSchema),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export const settlementResponseSchema = z.strictObject({
  success: z.boolean(),
  transaction: z.string(),
  network: z.string(),
  payer: z.string().optional(),
  errorReason: z.string().optional(),
});
/** Decoded shapes of the headers (which carry standard base64 of their UTF-8 JSON), as document components. */
export const X402_HEADER_COMPONENTS = {
  X402PaymentRequired: paymentRequiredSchema,
  X402PaymentPayload: paymentPayloadSchema,
  X402SettlementResponse: settlementResponseSchema,
} as const;

const base64 = { type: 'string', pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$' };
const QUOTE_HEADERS = {
  'payment-required': {
    ...base64,
    description: 'The quote: base64 of the JSON #/components/schemas/X402PaymentRequired; pay it and retry with X-PAYMENT',
  },
  'cache-control': { type: 'string', enum: ['no-store'] },
};
const RECEIPT_HEADERS = {
  'payment-response': {
    ...base64,
    description:
      'The settlement receipt: base64 of the JSON #/components/schemas/X402SettlementResponse (absent when an earlier payment covered the call)',
  },
  'x-payment-response': { ...base64, description: 'The same receipt under its v1 name' },
};

/** The `billing` of an x402 answer (read-api/x402/paid-route.ts x402Billing). */
export const x402BillingSchema = z.strictObject({
  model: z.literal('x402'),
  currency: z.literal('USD'),
  charged_usd: z.number().min(0),
  network: z.string(),
  asset: z.string(),
  payer: z.string().nullable(),
  transaction: z.string().nullable(),
  replay: z.boolean(),
});
const paid = { billing: x402BillingSchema, elapsed_ms: z.number().int().min(0) };
/** The verdict's receipt on every paid verdict (docs/x402.md). */
const signed = { receipt: receiptField };

const screenBody = z.strictObject({
  schema_version: z.number().int(),
  address: z.string(),
  network: networkOut,
  provider: z.string(),
  coverage: coverageSchema,
  verdict: verdictSchema,
  ...signed,
});
const checkRunning = z.strictObject({
  check_id: z.string(),
  status: z.literal('running'),
  result_url: z.string(),
  requested_at: isoTimestamp,
});
const exploreStarted = z.strictObject({ job_id: z.string(), status: z.literal('running'), result_url: z.string() });
const exploreRunning = exploreStarted.extend({ requested_at: isoTimestamp });
const transferRunning = z.strictObject({ check_id: z.string(), status: z.literal('running'), retry_url: z.string() });
const transferBody = transferResultSchema.omit({ billing: true });

/** The 200 bodies of the paid routes: the REST contract, and the MCP tools' output schemas (read-api/x402/mcp). */
export const X402_PAID_BODIES = {
  screen: screenBody.extend(paid),
  check_address: fullCheckResultSchema.extend({ ...signed, ...paid }),
  check_transfer: transferBody.extend(paid),
} as const;

/** The status and envelope the x402 channel gives a code (read-api/errors.ts x402ErrorBody). */
function x402Visible(code: ErrorCode): { status: number; code: ErrorCode } {
  const status = HTTP_STATUS[code];
  if (code === 'unsupported_media_type' || code === 'validation_error') return { status, code: 'body_invalid' };
  if (status >= 500 && !X402_PUBLIC_5XX.has(code)) return { status: 500, code: 'service_internal_error' };
  return { status, code };
}

/** Every route: a refused request (400 body_invalid), an unknown id (404), the rate limit, a failure. */
const COMMON: readonly ErrorCode[] = ['body_invalid', 'rate_limit_exceeded', 'service_internal_error'];
const PAID: readonly ErrorCode[] = [
  ...COMMON,
  'payment_required',
  'payment_invalid',
  'payment_expired',
  'payment_replayed',
  'payment_underpaid',
];

function x402ErrorResponses(codes: readonly ErrorCode[]): Record<number, z.ZodType> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const visible = x402Visible(code);
    byStatus.set(visible.status, [...(byStatus.get(visible.status) ?? []), visible.code]);
  }
  const responses: Record<number, z.ZodType> = {};
  for (const [status, statusCodes] of byStatus) {
    const envelope = errorEnvelope(statusCodes, { details: false });
    const description = DESCRIPTIONS[status] ?? `Error ${String(status)}`;
    if (status === 402) {
      // no payment at all: an empty body, the quote in the header; a refused payment: the envelope
      responses[status] = z
        .union([z.strictObject({}), envelope])
        .meta({ description: 'Pay the quote in payment-required (a refused proof says why)', headers: QUOTE_HEADERS });
    } else if (status === 429) {
      responses[status] = envelope.meta({ description, headers: { 'retry-after': { type: 'integer' } } });
    } else {
      responses[status] = envelope.meta({ description });
    }
  }
  responses[503] = closingBody.meta({ description: 'Shutting down' });
  return responses;
}

const withReceipt = (schema: z.ZodType, description: string) => schema.meta({ description, headers: RECEIPT_HEADERS });
const pollLater = (schema: z.ZodType, description: string) => schema.meta({ description, headers: { 'retry-after': { type: 'integer' } } });

// the path's `chain` of the address routes names a screening network (case-insensitive)
const addressParams = z.object({ chain: networkField, address: addressField });
const idParams = z.object({ id: z.string().meta({ format: 'uuid' }) });
const paymentHeaders = z.object({
  'x-payment': z.string().optional().meta({
    description:
      'The payment proof: base64 of the JSON #/components/schemas/X402PaymentPayload (PAYMENT-SIGNATURE is accepted too). Without it, 402 with the quote',
  }),
});

interface X402RouteSchema {
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly headers?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: Record<number, z.ZodType>;
}

/** The document's description of each x402 route, by method and Fastify path. */
export const X402_ROUTE_SCHEMAS: Readonly<Record<string, X402RouteSchema>> = {
  'GET /.well-known/jwks.json': {
    summary: 'The public keys of verdict receipts (JWKS, free)',
    response: { 200: jwksSchema, ...x402ErrorResponses(['rate_limit_exceeded', 'service_internal_error']) },
  },
  'GET /screen/:chain/:address': {
    summary: 'Light screen of an address (0.10 USD)',
    params: addressParams,
    headers: paymentHeaders,
    response: {
      200: withReceipt(X402_PAID_BODIES.screen, 'The verdict'),
      ...x402ErrorResponses([...PAID, 'chain_unsupported', 'address_invalid', 'backend_unavailable']),
    },
  },
  'GET /check-address/:chain/:address': {
    summary: 'Full check of an address (1.00 USD): 200 within 30 s, else 202 with the free result URL',
    params: addressParams,
    headers: paymentHeaders,
    response: {
      200: withReceipt(X402_PAID_BODIES.check_address, 'The verdict'),
      202: withReceipt(checkRunning.extend(paid), 'Paid and running: fetch result_url'),
      ...x402ErrorResponses([...PAID, 'chain_unsupported', 'address_invalid', 'backend_unavailable']),
    },
  },
  'GET /check-address-result/:id': {
    summary: 'Result of a paid full check (free)',
    params: idParams,
    response: {
      200: fullCheckResultSchema
        .extend({ ...signed, ...paid })
        .meta({ description: 'The verdict (billing.replay true: nothing charged here)' }),
      202: pollLater(checkRunning, 'Still running'),
      ...x402ErrorResponses([...COMMON, 'not_found', 'backend_unavailable']),
    },
  },
  'POST /explore': {
    summary: 'Graph exposure job (asynchronous): 202 with the free result URL',
    headers: paymentHeaders,
    body: z.strictObject({
      address: addressField,
      network: networkField,
      direction: z.enum(['in', 'out', 'both']).optional(),
      max_hops: z.number().int().min(1).max(20).optional(),
      max_nodes: z.number().int().min(1).optional(),
    }),
    response: {
      202: withReceipt(exploreStarted.extend(paid), 'Paid and running: fetch result_url'),
      ...x402ErrorResponses([
        ...PAID,
        'chain_unsupported',
        'address_invalid',
        'validation_error',
        'payload_too_large',
        'unsupported_media_type',
      ]),
    },
  },
  'GET /explore/:id/result': {
    summary: 'Report of a paid explore job (free)',
    params: idParams,
    response: {
      200: exploreReportBodySchema.meta({ description: 'The exposure report' }),
      202: pollLater(exploreRunning, 'Still running'),
      ...x402ErrorResponses([...COMMON, 'not_found', 'check_failed']),
    },
  },
  'GET /check-transfer/:chain/:tx_hash': {
    summary: 'Transfer check (0.50 USD, one payment per transaction): 200 within 30 s, else 202 with the free result URL',
    params: z.object({ chain: chainField, tx_hash: txHashField }),
    headers: paymentHeaders,
    response: {
      200: withReceipt(X402_PAID_BODIES.check_transfer, 'The result'),
      202: withReceipt(transferRunning.extend(paid), 'Paid and running: fetch retry_url'),
      ...x402ErrorResponses([...PAID, 'chain_unsupported', 'body_invalid', 'tx_not_found', 'tx_decode_failed', 'backend_unavailable']),
    },
  },
  'GET /check-transfer-result/:id': {
    summary: 'Result of a paid transfer check (free)',
    params: idParams,
    response: {
      200: transferBody.extend(paid).meta({ description: 'The result (billing.replay true: nothing charged here)' }),
      202: pollLater(transferRunning, 'Still running'),
      ...x402ErrorResponses([...COMMON, 'not_found', 'tx_not_found', 'tx_decode_failed', 'backend_unavailable']),
    },
  },
};
