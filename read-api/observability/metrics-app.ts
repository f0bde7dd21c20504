import Fastify, { type FastifyInstance } from 'fastify';
import { serverLimitOptions } from '../server-limits.js';
import type { HttpMetrics } from './http-metrics.js';
import { metricsRoutes } from './metrics.routes.js';

/** GET /metrics alone, for a listener of its own (infra/startup/exposure.ts says when). */
export async function buildMetricsApp(metrics: HttpMetrics): Promise<FastifyInstance> {
  const app = Fastify({ ...serverLimitOptions(), logger: false, return503OnClosing: true });
  await app.register(metricsRoutes(metrics));
  return app;
}
