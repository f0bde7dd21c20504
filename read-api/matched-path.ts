import type { FastifyRequest } from 'fastify';

/**
 * The path of the route that matched, with its parameters as the router decoded them (each re-encoded):
 * `/scr%65en/ETH/0x…` is `/screen/ETH/0x…`. What a request is (its resource, its quote) is named by this,
 * never by the raw URL, whose spelling the client chooses. An unmatched request: its raw path.
 */
export function matchedPath(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (!pattern) return request.url.split('?')[0] ?? '/';
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  return pattern.replace(/:(\w+)|\*$/g, (whole, name: string | undefined) => {
    const value = params[name ?? '*'];
    if (value === undefined) return whole;
    return name === undefined ? value : encodeURIComponent(value);
  });
}
