import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { HttpMetrics } from './http-metrics.js';
import { metricsRoutes } from './metrics.routes.js';

/** GET /metrics on its own: the optional bearer token, and no 5xx even when rendering fails. */

function metrics(
  token: string | null,
  render: HttpMetrics['render'] = async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'up 1\n' }),
): HttpMetrics {
  return { token, observe: () => undefined, render };
}

async function app(m: HttpMetrics) {
  const app = Fastify();
  await app.register(metricsRoutes(m));
  return app;
}

describe('GET /metrics', () => {
  it('is open without METRICS_TOKEN', async () => {
    const response = await (await app(metrics(null))).inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toBe('up 1\n');
  });

  it('wants the bearer token when METRICS_TOKEN is set', async () => {
    const served = await app(metrics('a-long-enough-token'));
    for (const authorization of [undefined, 'Bearer wrong', 'Bearer a-long-enough-token ', 'a-long-enough-token']) {
      const response = await served.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    const ok = await served.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer a-long-enough-token' } });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 200 with a comment when rendering fails', async () => {
    const response = await (
      await app(metrics(null, async () => Promise.reject(new Error('registry\nbroken'))))
    ).inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('# metrics unavailable: Error: registry broken\n');
  });
});
