import type { FastifyInstance } from 'fastify';
import { fail } from '../../domain/shared/errors.js';
import type { RateLimiter } from './rate-limiter.js';

/** Ids minted by the service are UUIDs; anything else names no check or job. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Seconds a client waits before fetching a running check again. */
export const POLL_AFTER_SECONDS = 2;

/**
 * A free x402 result endpoint: no payment, no Authorization, the id is the only credential. Rate-limited
 * in the free bucket (429 with Retry-After); a 202 carries Retry-After too.
 */
export function registerFreeResultRoute(
  app: FastifyInstance,
  limiter: RateLimiter,
  path: string,
  outcome: (id: string) => Promise<{ status: number; body: Record<string, unknown> }>,
): void {
  app.get(path, async (request, reply) => {
    limiter.take('free', request.ip);
    const id = (request.params as { id: string }).id;
    if (!UUID.test(id)) throw fail('not_found', 'no such check');
    const response = await outcome(id.toLowerCase());
    if (response.status === 202) reply.header('retry-after', String(POLL_AFTER_SECONDS));
    return reply.status(response.status).send(response.body);
  });
}
