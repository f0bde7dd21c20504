import type { paths } from './v2.js';

/**
 * Response bodies typed by the served OpenAPI document (the generated v2.d.ts): a test that reads a field
 * the document does not declare, or reads it as another type, fails the typecheck, so the document cannot
 * drift from what the tests see the code answer.
 */
type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Responses<P extends keyof paths, M extends Method> = Operation<P, M> extends { responses: infer R } ? R : never;
export type ResponseBody<P extends keyof paths, M extends Method, S extends keyof Responses<P, M>> = Responses<P, M>[S] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;

interface JsonResponse {
  readonly statusCode: number;
  readonly body: string;
  json(): unknown;
}

/** The body of a response the document declares for this operation and status; throws on another status. */
export function bodyOf<P extends keyof paths, M extends Method, S extends keyof Responses<P, M> & number>(
  response: JsonResponse,
  method: M,
  path: P,
  status: S,
): ResponseBody<P, M, S> {
  if (response.statusCode !== status) {
    throw new Error(`${method.toUpperCase()} ${String(path)}: expected ${status}, got ${response.statusCode}: ${response.body.slice(0, 300)}`);
  }
  return response.json() as ResponseBody<P, M, S>;
}
