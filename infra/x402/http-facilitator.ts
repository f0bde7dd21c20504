import { z } from 'zod';
import type {
  Facilitator,
  FacilitatorSettleResponse,
  FacilitatorSupported,
  FacilitatorVerifyResponse,
} from '../../domain/ports/facilitator.port.js';
import { fail } from '../../domain/shared/errors.js';
import { X402_VERSION, type PaymentPayload, type PaymentRequirements } from '../../domain/x402/x402-wire.js';

const verifySchema = z.object({
  isValid: z.boolean(),
  invalidReason: z.string().optional(),
  invalidMessage: z.string().optional(),
  payer: z.string().optional(),
});
const settleSchema = z.object({
  success: z.boolean(),
  errorReason: z.string().optional(),
  errorMessage: z.string().optional(),
  payer: z.string().optional(),
  transaction: z.string(),
  network: z.string(),
});
const supportedSchema = z.object({
  kinds: z.array(
    z.object({ x402Version: z.number(), scheme: z.string(), network: z.string(), extra: z.record(z.string(), z.unknown()).optional() }),
  ),
  extensions: z.array(z.string()).optional(),
  signers: z.record(z.string(), z.array(z.string())).optional(),
});

/**
 * A hosted x402 facilitator over HTTP: `POST /verify`, `POST /settle` with
 * `{ x402Version, paymentPayload, paymentRequirements }`, `GET /supported`. Like the reference client, a
 * non-2xx answer whose body is a well-formed verdict is that verdict. No answer at all is
 * `backend_unavailable`; for /settle, a refused connection means nothing was broadcast, while a timeout or
 * an unreadable answer leaves the settlement's outcome unknown.
 */
export function createHttpFacilitator(options: {
  url: string;
  timeoutMs: number;
  authorization?: string;
  fetch?: typeof fetch;
}): Facilitator {
  const base = options.url.replace(/\/+$/, '');
  const send = options.fetch ?? fetch;
  const headers = { 'content-type': 'application/json', ...(options.authorization ? { authorization: options.authorization } : {}) };

  async function call<T>(path: string, init: RequestInit, schema: z.ZodType<T>, uncertain: boolean): Promise<T> {
    let response: Response;
    try {
      response = await send(`${base}${path}`, { ...init, headers, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      const refused = connectionRefused(error);
      throw fail('backend_unavailable', `the facilitator at ${base} did not answer ${path}: ${describe(error)}`, {
        broadcast: uncertain && !refused,
      });
    }
    const text = await response.text().catch(() => '');
    const parsed = schema.safeParse(parseJson(text));
    if (parsed.success) return parsed.data;
    throw fail('backend_unavailable', `the facilitator at ${base} answered ${path} with ${response.status} and no valid body`, {
      broadcast: uncertain,
    });
  }

  const post = <T>(path: string, payment: PaymentPayload, requirements: PaymentRequirements, schema: z.ZodType<T>, uncertain: boolean) =>
    call(
      path,
      { method: 'POST', body: JSON.stringify({ x402Version: X402_VERSION, paymentPayload: payment, paymentRequirements: requirements }) },
      schema,
      uncertain,
    );

  return {
    verify: (payment, requirements): Promise<FacilitatorVerifyResponse> => post('/verify', payment, requirements, verifySchema, false),
    settle: (payment, requirements): Promise<FacilitatorSettleResponse> => post('/settle', payment, requirements, settleSchema, true),
    supported: (): Promise<FacilitatorSupported> => call('/supported', { method: 'GET' }, supportedSchema, false),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return cause?.code === 'ECONNREFUSED';
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return cause?.code ?? (error instanceof Error ? error.message : String(error));
}
