import type { FastifyInstance, FastifySerializerCompiler } from 'fastify';
import type { z } from 'zod';

/**
 * How responses meet their schemas. The body is always written exactly as the handler built it
 * (JSON.stringify of the handler's value): a schema never strips or rewrites a field. With `check` on
 * (tests), every body is also held against its route's schema for its status, and a body the schema
 * does not describe exactly (a missing, extra or mistyped field, at any depth) fails the request loudly,
 * as does a status the route does not declare.
 */

export class ResponseContractError extends Error {
  constructor(message: string) {
    super(message);
    // said at once: the error handler turns it into a plain 500, which alone would not say why
    process.stderr.write(`response contract: ${message}\n`);
  }
}

/** On under the test runner: every test that calls a route also checks its answer against the document. */
export const CHECK_RESPONSES_BY_DEFAULT = process.env.VITEST === 'true';

/** The JSON value the client receives (undefined fields dropped, dates as strings). */
const asSent = (data: unknown): unknown => (data === undefined ? undefined : JSON.parse(JSON.stringify(data)));

/** The first path where two JSON values differ, or null when they are equal. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (a === b) return null;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return path;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}.length`;
    for (let i = 0; i < a.length; i++) {
      const found = firstDifference(a[i], b[i], `${path}[${String(i)}]`);
      if (found) return found;
    }
    return null;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    const found = firstDifference(left[key], right[key], `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

/** Null when `data` is exactly what `schema` describes; else why not. */
export function contractViolation(schema: z.ZodType, data: unknown): string | null {
  const sent = asSent(data);
  const parsed = schema.safeParse(sent);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.') || '$'}: ${i.message}`).join('; ');
  const changed = firstDifference(sent, asSent(parsed.data));
  return changed ? `the schema would change ${changed} (a field it does not describe?)` : null;
}

export function responseSerializerCompiler(check: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url, httpStatus }) =>
    (data) => {
      if (check) {
        const violation = contractViolation(schema, data);
        if (violation)
          throw new ResponseContractError(`${method} ${url} ${httpStatus ?? ''}: the body does not match its schema: ${violation}`);
      }
      return JSON.stringify(data);
    };
}

/** With `check` on: a route with declared responses that answers a status it does not declare fails loudly. */
export function checkDeclaredStatuses(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const declared = (request.routeOptions.schema?.response ?? null) as Record<string, unknown> | null;
    if (declared && !(String(reply.statusCode) in declared)) {
      // log too: the 500 this becomes may itself be what a test sees
      request.log.error(
        `${request.method} ${request.routeOptions.url ?? request.url} answered undeclared status ${String(reply.statusCode)}`,
      );
      if (reply.statusCode !== 500)
        throw new ResponseContractError(
          `${request.method} ${request.routeOptions.url ?? request.url} answered ${String(reply.statusCode)}, which its schema does not declare`,
        );
    }
    return payload;
  });
}
