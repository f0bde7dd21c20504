import { z } from 'zod';
import type { ErrorCode } from '../../domain/shared/errors.js';
import { HTTP_STATUS, PUBLIC_5XX } from '../errors.js';
import { billingSchema, refusalBillingSchema } from './billing.js';
import { ERROR_EXAMPLES } from './examples.js';
import { providerEntriesSchema } from './inspect.js';

/**
 * The V2 error envelope `{ error: { code, message }, ...details }` (read-api/errors.ts), one schema per
 * status with the codes that status can carry as an enum. Codes and statuses come from the error
 * mapper's own table, so the document cannot name a status the mapper would not use.
 */

export const validationDetailSchema = z.strictObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
  input: z.unknown().optional(),
  ctx: z.record(z.string(), z.unknown()).optional(),
});

const checkStatus = z.enum(['failed', 'failed_timeout']);

/** The details each code adds beside `error` (read-api/errors.ts PUBLIC_DETAILS); all others add none. */
const DETAILS: Partial<Record<ErrorCode, z.core.$ZodLooseShape>> = {
  unsupported_network: { supported_networks: z.array(z.string()) },
  validation_error: { detail: z.array(validationDetailSchema) },
  check_failed: { check_id: z.string(), job_id: z.string(), status: checkStatus },
  insufficient_funds: { billing: refusalBillingSchema },
  quota_exceeded: { billing: refusalBillingSchema },
  monthly_cap_exceeded: { billing: refusalBillingSchema },
  backend_unavailable: {
    check_id: z.string(),
    status: checkStatus,
    providers: providerEntriesSchema,
    billing: billingSchema,
  },
  gateway_timeout: { check_id: z.string(), retry_url: z.string() },
  tx_not_found: { check_id: z.string(), status: checkStatus },
  tx_decode_failed: { check_id: z.string(), status: checkStatus },
};

/** The code a client sees for a server-side failure: its own when public, else internal_error. */
export const visibleCode = (code: ErrorCode, public5xx: ReadonlySet<ErrorCode> = PUBLIC_5XX): ErrorCode =>
  HTTP_STATUS[code] >= 500 && !public5xx.has(code) ? 'internal_error' : code;

/** The envelope for a set of codes: `code` is their enum, and each code's details are optional fields. */
export function errorEnvelope(codes: readonly ErrorCode[], options: { details?: boolean } = {}) {
  const details: z.core.$ZodLooseShape = {};
  for (const code of options.details === false ? [] : codes) {
    for (const [field, schema] of Object.entries(DETAILS[code] ?? {})) details[field] = (schema as z.ZodType).optional();
  }
  const [first, ...rest] = [...new Set(codes)].sort();
  if (!first) throw new Error('an error envelope needs at least one code');
  return z.strictObject({ error: z.strictObject({ code: z.enum([first, ...rest]), message: z.string() }), ...details });
}

/** The body Fastify itself writes to a request that arrives while the server closes (return503OnClosing). */
export const closingBody = z.strictObject({ error: z.literal('Service Unavailable'), message: z.string(), statusCode: z.literal(503) });

export const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request',
  401: 'No valid API key',
  402: 'Payment or quota refused; nothing charged',
  403: 'Not entitled',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Request validation failed',
  429: 'Too many requests',
  500: 'Internal error',
  502: 'Upstream or pipeline failure; nothing charged',
  503: 'Overloaded or shutting down; retry after Retry-After',
  504: 'Timed out; nothing charged',
};

/** One response schema per status for these codes, keyed by status (a 5xx code not public becomes internal_error). */
export function errorResponses(codes: readonly ErrorCode[], public5xx: ReadonlySet<ErrorCode> = PUBLIC_5XX): Record<number, z.ZodType> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const visible = visibleCode(code, public5xx);
    const status = visible === 'internal_error' ? 500 : HTTP_STATUS[visible];
    byStatus.set(status, [...(byStatus.get(status) ?? []), visible]);
  }
  const responses: Record<number, z.ZodType> = {};
  for (const [status, statusCodes] of byStatus) {
    const envelope = errorEnvelope(statusCodes);
    const schema = status === 503 ? z.union([envelope, closingBody]) : envelope;
    const example = statusCodes.map((code) => ERROR_EXAMPLES[code]).find((body) => body !== undefined);
    responses[status] = schema.meta({ description: DESCRIPTIONS[status] ?? `Error ${status}`, ...(example ? { example } : {}) });
  }
  return responses;
}
