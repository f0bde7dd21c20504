import type { FastifyInstance } from 'fastify';
import type { CorrelationScope } from '../../domain/ports/correlation.port.js';
import type { HttpMetrics } from './http-metrics.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** Route label of a request no route matched (404s): one value, whatever URL was asked for. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Root hooks, so they see every request: the request id (its correlation id, see request-id.ts) is echoed in
 * `X-Request-Id` and made the current correlation for everything the request does (the commands it runs
 * stamp it on their events); each answered request is counted and timed under its route pattern.
 */
export function addRequestTracing(
  app: FastifyInstance,
  options: { correlation?: CorrelationScope | undefined; metrics?: HttpMetrics | undefined },
): void {
  const { correlation, metrics } = options;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    // done() runs the rest of the request inside the scope (Fastify keeps it across the body parser too).
    if (correlation) correlation.run({ correlationId: request.id }, done);
    else done();
  });
  if (metrics) {
    app.addHook('onResponse', (request, reply, done) => {
      try {
        metrics.observe({
          method: request.method,
          route: request.routeOptions.url ?? UNMATCHED_ROUTE,
          statusCode: reply.statusCode,
          seconds: reply.elapsedTime / 1000,
        });
      } catch {
        // A metric must never break an answer.
      }
      done();
    });
  }
}
