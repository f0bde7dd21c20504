import type { FastifyPluginAsync } from 'fastify';
import type { HttpMetrics } from './http-metrics.js';

/** Equal-time comparison: how much of a token matched must not show in the answer's timing. */
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/**
 * GET /metrics: Prometheus' text format, outside the OpenAPI document and the API keys (operators keep it
 * internal, or set METRICS_TOKEN). It never answers 5xx: a scrape that cannot be rendered gets a comment.
 */
export function metricsRoutes(metrics: HttpMetrics): FastifyPluginAsync {
  return async (app) => {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (metrics.token !== null && !sameText(request.headers.authorization ?? '', `Bearer ${metrics.token}`)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ error: { code: 'unauthorized', message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' } });
      }
      try {
        const { contentType, body } = await metrics.render();
        return reply.type(contentType).send(body);
      } catch (error) {
        return reply
          .type('text/plain; version=0.0.4; charset=utf-8')
          .send(`# metrics unavailable: ${String(error).replace(/\s+/g, ' ').slice(0, 200)}\n`);
      }
    });
  };
}
