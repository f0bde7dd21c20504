import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';

/**
 * Request validation with zod, reported in the spec's 422 shape:
 * `{ detail: [{ loc: ["body", "address"], msg, type, input?, ctx? }] }`.
 */
export const validationDetailSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
  input: z.unknown().optional(),
  ctx: z.record(z.string(), z.unknown()).optional(),
});
export type ValidationDetail = z.infer<typeof validationDetailSchema>;

export class RequestValidationError extends Error {
  constructor(readonly detail: ValidationDetail[]) {
    super('request validation failed');
  }
}

export function validationBody(detail: ValidationDetail[]) {
  return { status: 422, body: { error: { code: 'validation_error', message: 'the request is not valid' }, detail } };
}

/**
 * A bound in the words of its kind: a string's or a list's length (`min_length`, `max_length`), a
 * number's value (`ge`, `gt`, `le`, `lt`), as pydantic names them, so that `ctx` fits what it bounds.
 */
function boundOf(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): { type: string; ctx: Record<string, number> } {
  const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  const small = issue.code === 'too_small';
  switch (issue.origin) {
    case 'string':
      return small ? { type: 'string_too_short', ctx: { min_length: bound } } : { type: 'string_too_long', ctx: { max_length: bound } };
    case 'number':
    case 'int':
    case 'bigint':
      if (small)
        return issue.inclusive === false
          ? { type: 'greater_than', ctx: { gt: bound } }
          : { type: 'greater_than_equal', ctx: { ge: bound } };
      return issue.inclusive === false ? { type: 'less_than', ctx: { lt: bound } } : { type: 'less_than_equal', ctx: { le: bound } };
    default:
      return small ? { type: 'too_short', ctx: { min_length: bound } } : { type: 'too_long', ctx: { max_length: bound } };
  }
}

function typeOf(issue: z.core.$ZodIssue, input: unknown): { type: string; ctx?: Record<string, unknown> } {
  switch (issue.code) {
    case 'invalid_type':
      return { type: input === undefined ? 'missing' : `${issue.expected}_type` };
    case 'too_small':
    case 'too_big':
      return boundOf(issue);
    case 'invalid_value':
      return { type: 'enum', ctx: { expected: issue.values } };
    case 'unrecognized_keys':
      return { type: 'extra_forbidden' };
    default:
      return { type: 'value_error' };
  }
}

/** A detail's one numeric bound (`le: 100`), or null. */
function boundIn(detail: ValidationDetail): { name: string; value: number } | null {
  const entries = Object.entries(detail.ctx ?? {});
  const [name, value] = entries[0] ?? [];
  return entries.length === 1 && name !== undefined && typeof value === 'number' ? { name, value } : null;
}

const UPPER_BOUNDS = new Set(['le', 'lt', 'max_length']);

/** Of two bounds of one kind on one field (an integer's safe range and the schema's own limit), the tighter says it all. */
function tighter(details: readonly ValidationDetail[]): ValidationDetail[] {
  const kept: ValidationDetail[] = [];
  for (const detail of details) {
    const bound = boundIn(detail);
    const twin = bound
      ? kept.findIndex((k) => boundIn(k)?.name === bound.name && JSON.stringify(k.loc) === JSON.stringify(detail.loc))
      : -1;
    if (!bound || twin < 0) {
      kept.push(detail);
      continue;
    }
    const before = boundIn(kept[twin] as ValidationDetail)?.value ?? bound.value;
    if (UPPER_BOUNDS.has(bound.name) ? bound.value < before : bound.value > before) kept[twin] = detail;
  }
  return kept;
}

function inputAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

export function toValidationDetail(error: z.ZodError, part: string, root: unknown): ValidationDetail[] {
  const details = error.issues.map((issue): ValidationDetail => {
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
  return tighter(details);
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(toValidationDetail(result.error, PART_NAMES[httpPart ?? 'body'] ?? 'body', data)) };
  };
