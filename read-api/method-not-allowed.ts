import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * 405 Method Not Allowed (RFC 9110 §15.5.6) for a path that exists under other methods, with the `Allow`
 * header listing them; Fastify's router alone answers 404 for any method it has no route for. The
 * routes are collected as they are registered (call before any route), each pattern turned into a
 * regular expression the not-found handler matches the path against. A catch-all (`*`, such as the x402
 * channel's `OPTIONS *` for CORS) names no path and is left out.
 */
export interface MethodTable {
  /** The methods of the routes whose pattern matches the path, sorted; empty when no route matches. */
  allowedOn(path: string): string[];
}

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** `/v2/alerts/:id` → `^/v2/alerts/[^/]+$`; `/docs/*` → `^/docs/.*$`. */
export function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : escape(part)))
    .join('/');
  return new RegExp(`^${source}$`);
}

export function collectMethods(app: FastifyInstance): MethodTable {
  const routes: { pattern: RegExp; methods: readonly string[] }[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url === '*' || route.url === '/*') return;
    routes.push({ pattern: patternOf(route.url), methods: [route.method].flat().map(String) });
  });
  return {
    allowedOn(path) {
      const allowed = new Set<string>();
      for (const route of routes) if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method);
      return [...allowed].sort();
    },
  };
}

/**
 * Both apps' not-found handler: a path that exists under other methods is 405 with `Allow`, any other
 * 404, in the `{ error: { code, message } }` envelope the two apps share.
 */
export function notFoundOrNotAllowed(table: MethodTable) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = table.allowedOn(path).filter((method) => method !== request.method);
    if (allowed.length === 0)
      return reply.status(404).send({ error: { code: 'not_found', message: `no route ${request.method} ${path}` } });
    const list = allowed.join(', ');
    const message = `${request.method} is not allowed on ${path.slice(0, 120)}; allowed: ${list}`;
    return reply
      .status(405)
      .header('allow', list)
      .send({ error: { code: 'method_not_allowed', message } });
  };
}
