/**
 * Errors cross every port as `{ code }` values. Only read-api/errors.ts turns a code into an HTTP status.
 */

export const ERROR_CODES = [
  // client mistakes (V2 table of the spec)
  'bad_request',
  'unsupported_network',
  'validation_error',
  'missing_api_key',
  'invalid_api_key',
  'insufficient_funds',
  'quota_exceeded',
  'monthly_cap_exceeded',
  'consensus_not_entitled',
  'idempotency_conflict',
  'kyt_requires_subgroup',
  'not_found',
  // the path exists, under other methods (405 with Allow)
  'method_not_allowed',
  // an account with this email already exists (one account per email: logins find accounts by email)
  'email_taken',
  'payload_too_large',
  'unsupported_media_type',
  // webhooks: a target URL refused (HTTPS only, no private or local addresses); no subgroup to own one
  'webhook_target_refused',
  'webhook_requires_subgroup',
  // x402 channel (the spec's x402 table)
  'payment_required',
  'payment_invalid',
  'payment_expired',
  'payment_replayed',
  'payment_underpaid',
  'chain_unsupported',
  'address_invalid',
  'body_invalid',
  'rate_limit_exceeded',
  'service_internal_error',
  // dashboard (login, sessions)
  'login_required',
  'invalid_credentials',
  'too_many_attempts',
  'csrf_failed',
  // server side
  // transfer check (KYT): the transaction is not on the chain (or not mined yet); the node's answer cannot be read
  'tx_not_found',
  'tx_decode_failed',
  'backend_unavailable',
  'gateway_timeout',
  // full check and explore jobs: the job failed or timed out; its result answers 502, nothing charged
  'check_failed',
  'internal_error',
  // infrastructure, never shown to clients as such
  'wrong_expected_version',
  'invalid_state',
  'data_import_failed',
  'store_closed',
  // a bounded queue or cache is full: retry after a moment (503 with Retry-After)
  'overloaded',
  'store_corrupt',
  'config_invalid',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface Failure {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The one throwable of the service: a Failure value wrapped so that stacks survive. */
export class ServiceError extends Error implements Failure {
  readonly code: ErrorCode;
  readonly details?: Readonly<Record<string, unknown>>;

  constructor(failure: Failure) {
    super(failure.message);
    this.name = 'ServiceError';
    this.code = failure.code;
    if (failure.details !== undefined) this.details = failure.details;
  }
}

export function fail(code: ErrorCode, message: string, details?: Record<string, unknown>): ServiceError {
  return new ServiceError(details === undefined ? { code, message } : { code, message, details });
}

export function hasCode(error: unknown, code: ErrorCode): error is ServiceError {
  return error instanceof ServiceError && error.code === code;
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}
