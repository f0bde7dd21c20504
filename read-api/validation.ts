import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/**
 * Request validation with zod, reported in the spec's 422 shape:
 * `{ detail: [{ loc: ["body", "address"], msg, type, input?, ctx? }] }`.
 */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class RequestValidationError extends Error {
  constructor(readonly detail: ValidationDetail[]) {
    super('request validation failed');
  }
}

export function validationBody(detail: ValidationDetail[]) {
  return { status: 422, body: { error: { code: 'validation_error', message: 'the request is not valid' }, detail } };
}

function typeOf(issue: z.core.$ZodIssue, input: unknown): { type: string; ctx?: Record<string, unknown> } {
  switch (issue.code) {
    case 'invalid_type':
      return { type: input === undefined ? 'missing' : `${issue.expected}_type` };
    case 'too_small':
      return { type: issue.origin === 'string' ? 'string_too_short' : 'too_small', ctx: { min_length: Number(issue.minimum) } };
    case 'too_big':
      return { type: issue.origin === 'string' ? 'string_too_long' : 'too_big', ctx: { max_length: Number(issue.maximum) } };
    case 'invalid_value':
      return { type: 'enum', ctx: { expected: issue.values } };
    case 'unrecognized_keys':
      return { type: 'extra_forbidden' };
    default:
      return { type: 'value_error' };
  }
}

function inputAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

export function toValidationDetail(error: z.ZodError, part: string, root: unknown): ValidationDetail[] {
  return error.issues.map((issue) => {
    const input = inputAt(root, issue.path);
    const { type, ctx } = typeOf(issue, input);
    return {
      loc: [part, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
      msg: issue.message,
      type,
      ...(input !== undefined ? { input } : {}),
      ...(ctx ? { ctx } : {}),
    };
  });
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(toValidationDetail(result.error, PART_NAMES[httpPart ?? 'body'] ?? 'body', data)) };
  };
