import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../domain/shared/errors.js';
import { isServiceError, type ServiceError } from '../domain/shared/errors.js';
import { chargedBillingSchema } from '../domain/ledger/charged-billing.js';
import { presentBilling } from './presenters/billing.presenter.js';
import { RequestValidationError, validationBody } from './validation.js';
import { presentProviderEntries } from './presenters/inspect.presenter.js';

/**
 * The one place where a domain error code becomes an HTTP status and body.
 * V2 error envelope: `{ "error": { "code": <slug>, "message": <text>, ...details } }`, plus `detail[]`
 * on 422 and the spec's extra fields (`supported_networks`, `billing`) where they apply.
 */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unsupported_network: 400,
  validation_error: 422,
  missing_api_key: 401,
  invalid_api_key: 401,
  insufficient_funds: 402,
  quota_exceeded: 402,
  monthly_cap_exceeded: 402,
  consensus_not_entitled: 403,
  not_found: 404,
  method_not_allowed: 405,
  email_taken: 409,
  idempotency_conflict: 409,
  kyt_requires_subgroup: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  webhook_target_refused: 400,
  webhook_requires_subgroup: 409,
  payment_required: 402,
  payment_invalid: 402,
  payment_expired: 402,
  payment_replayed: 402,
  payment_underpaid: 402,
  chain_unsupported: 400,
  address_invalid: 400,
  body_invalid: 400,
  rate_limit_exceeded: 429,
  service_internal_error: 500,
  login_required: 401,
  invalid_credentials: 401,
  too_many_attempts: 429,
  csrf_failed: 403,
  tx_not_found: 502,
  tx_decode_failed: 502,
  backend_unavailable: 502,
  gateway_timeout: 504,
  check_failed: 502,
  internal_error: 500,
  wrong_expected_version: 500,
  invalid_state: 500,
  data_import_failed: 500,
  store_closed: 503,
  overloaded: 503,
  store_corrupt: 500,
  config_invalid: 500,
};

/** Details a client may see, per code; everything else stays in the logs. */
/** A charge a command put in an error's details (the domain fact), as the body's billing object; anything else as it is. */
function presentedCharge(billing: unknown): unknown {
  const charge = chargedBillingSchema.safeParse(billing);
  return charge.success ? presentBilling(charge.data) : billing;
}

const PUBLIC_DETAILS: Partial<Record<ErrorCode, (details: Readonly<Record<string, unknown>>) => Record<string, unknown>>> = {
  unsupported_network: (d) => ({ supported_networks: d.supported_networks }),
  // a body refused while parsed (a repeated key): the 422's detail[]
  validation_error: (d) => (d.detail ? { detail: d.detail } : {}),
  check_failed: (d) => ({ ...(d.check_id ? { check_id: d.check_id } : { job_id: d.job_id }), status: d.status }),
  insufficient_funds: (d) => ({ billing: d.billing }),
  quota_exceeded: (d) => (d.billing ? { billing: d.billing } : {}),
  monthly_cap_exceeded: (d) => (d.billing ? { billing: d.billing } : {}),
  // inspect: the check to poll, each provider's failure and the refund (a charge, presented)
  backend_unavailable: (d) => ({
    check_id: d.check_id,
    status: d.status,
    providers: d.providers && presentProviderEntries(d.providers as Parameters<typeof presentProviderEntries>[0]),
    billing: presentedCharge(d.billing),
  }),
  gateway_timeout: (d) => ({ check_id: d.check_id, retry_url: d.retry_url }),
  // transfer check: the failed check (its poll answers the same)
  tx_not_found: (d) => ({ check_id: d.check_id, status: d.status }),
  tx_decode_failed: (d) => ({ check_id: d.check_id, status: d.status }),
};

/** Server-side failures whose code the client may see (a transfer check's 502s say why). */
export const PUBLIC_5XX: ReadonlySet<ErrorCode> = new Set([
  'backend_unavailable',
  'gateway_timeout',
  'tx_not_found',
  'tx_decode_failed',
  'check_failed',
  'overloaded',
]);

export function errorBody(error: ServiceError): { status: number; body: Record<string, unknown> } {
  const status = HTTP_STATUS[error.code];
  if (status >= 500 && !PUBLIC_5XX.has(error.code)) {
    return { status: 500, body: { error: { code: 'internal_error', message: 'internal error' } } };
  }
  const extra = error.details ? (PUBLIC_DETAILS[error.code]?.(error.details) ?? {}) : {};
  return { status, body: { error: { code: error.code, message: error.message }, ...extra } };
}

const NOT_JSON = 'the body is not valid JSON';

/** Fastify's own errors for malformed requests, mapped to the spec's client codes (never a 5xx). */
function frameworkError(error: FastifyError): { status: number; body: Record<string, unknown> } | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return validationBody([{ loc: ['body'], msg: NOT_JSON, type: 'json_invalid' }]);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { error: { code: 'payload_too_large', message: 'the request body is too large' } } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: { error: { code: 'unsupported_media_type', message: 'send the body as application/json' } } };
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return { status: error.statusCode, body: { error: { code: 'bad_request', message: error.message } } };
      }
      return null;
  }
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const mapped =
    error instanceof RequestValidationError
      ? validationBody(error.detail)
      : isServiceError(error)
        ? errorBody(error)
        : frameworkError(error);
  if (mapped) {
    if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    // a full queue: the client may come back shortly
    if (isServiceError(error) && error.code === 'overloaded') reply.header('retry-after', String(error.details?.retryAfterSeconds ?? 1));
    return reply.status(mapped.status).send(mapped.body);
  }
  request.log.error({ err: error }, 'unexpected error');
  return reply.status(500).send({ error: { code: 'internal_error', message: 'internal error' } });
}

/** The x402 channel's server-side codes a client may see: a transfer check's 502s say why, as on V2. */
export const X402_PUBLIC_5XX: ReadonlySet<ErrorCode> = new Set([
  'backend_unavailable',
  'service_internal_error',
  'tx_not_found',
  'tx_decode_failed',
]);

/**
 * The x402 channel's errors (the spec's x402 table): the same `{ error: { code, message } }` envelope,
 * except a call without any payment, whose 402 body is `{}` (its quote is in the `payment-required`
 * header). A malformed request the framework refuses is `body_invalid`; any failure the table does not
 * name is `service_internal_error`.
 */
export function x402ErrorBody(error: unknown): { status: number; body: Record<string, unknown> } {
  const envelope = (status: number, code: string, message: string) => ({ status, body: { error: { code, message } } });
  if (!isServiceError(error)) {
    const status = (error as Partial<FastifyError> | null)?.statusCode;
    if (status === 404) return envelope(404, 'not_found', 'no such resource');
    // a body that is not JSON, or is empty: V2's status and words (its 422), in the channel's one body code
    const code = (error as Partial<FastifyError> | null)?.code;
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return envelope(422, 'body_invalid', NOT_JSON);
    // as on V2: a body over the limit (a REST route's or the MCP door's) is 413, not a malformed request
    if (status === 413) return envelope(413, 'payload_too_large', 'the request body is too large');
    if (status && status >= 400 && status < 500) return envelope(400, 'body_invalid', (error as Error).message);
    return envelope(500, 'service_internal_error', 'internal error');
  }
  const status = HTTP_STATUS[error.code];
  if (error.code === 'payment_required') return { status, body: {} };
  // A body refused while parsed (json-body.ts): its status (415 or 422), the channel's one body code.
  if (error.code === 'unsupported_media_type' || error.code === 'validation_error') return envelope(status, 'body_invalid', error.message);
  if (status >= 500 && !X402_PUBLIC_5XX.has(error.code)) {
    return envelope(500, 'service_internal_error', 'internal error');
  }
  return envelope(status, error.code, error.message);
}
