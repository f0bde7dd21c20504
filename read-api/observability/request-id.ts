/**
 * The correlation id of a request: the caller's `X-Request-Id` when it is short and made of safe characters
 * (so it can go into logs, headers and event metadata as it is), else a fresh id.
 */
export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(header: string | string[] | undefined, newId: () => string): string {
  return typeof header === 'string' && SAFE_REQUEST_ID.test(header) ? header : newId();
}
