import { z } from 'zod';
import type { ErrorCode } from '../../domain/shared/errors.js';
import { errorResponses } from './errors.js';

/**
 * A route's `response` block: its success bodies and the error envelopes of the codes it can answer.
 * Typed loosely on purpose: handlers type their bodies with `z.infer` of the schemas themselves.
 */

/** What any route behind the bearer check can answer, whatever it does. */
export const BEARER_ERRORS = [
  'bad_request',
  'missing_api_key',
  'invalid_api_key',
  'rate_limit_exceeded',
  'internal_error',
  'overloaded',
] as const satisfies readonly ErrorCode[];
/** What any route without a key can answer. */
export const PUBLIC_ERRORS = ['bad_request', 'rate_limit_exceeded', 'internal_error', 'overloaded'] as const satisfies readonly ErrorCode[];
/** A route that reads a JSON body: a malformed, oversized or non-JSON body, or one that fails its schema. */
export const BODY_ERRORS = ['validation_error', 'payload_too_large', 'unsupported_media_type'] as const satisfies readonly ErrorCode[];
/** A route with validated path, query or headers. */
export const INPUT_ERRORS = ['validation_error'] as const satisfies readonly ErrorCode[];
/** The refusals of a charged call (402, the billing envelope of what was refused). */
export const CHARGE_ERRORS = ['insufficient_funds', 'quota_exceeded', 'monthly_cap_exceeded'] as const satisfies readonly ErrorCode[];
/** The address endpoints' own refusals (read-api/routes/address-input.ts). */
export const ADDRESS_ERRORS = ['bad_request', 'unsupported_network', 'validation_error'] as const satisfies readonly ErrorCode[];

/** An answer without a body. */
export const noContent = (description: string): z.ZodType => z.undefined().meta({ description });

export function responses(success: Record<number, z.ZodType>, errors: readonly ErrorCode[]): Record<number, z.ZodType> {
  return { ...success, ...errorResponses(errors) };
}
