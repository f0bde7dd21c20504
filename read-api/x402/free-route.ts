import type { FastifyInstance } from 'fastify';
import { fail } from '../../domain/shared/errors.js';
import type { Presented } from '../presenters/presented.js';
import { x402Billing } from './paid-route.js';
import type { RateLimiter } from './rate-limiter.js';
import type { X402AppServices } from './x402-services.js';

/** Ids minted by the service are UUIDs; anything else names no check or job. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Seconds a client waits before fetching a running check again. */
export const POLL_AFTER_SECONDS = 2;

/**
 * A free x402 result endpoint: no payment, no Authorization, the id is the only credential. Rate-limited
 * in the free bucket (429 with Retry-After); a 202 carries Retry-After too. With `paidBodyOf` (the result
 * of a paid check), a 200 is the same body as the paid call's synchronous 200: with its `billing` (nothing
 * charged by this fetch: `replay: true`) and `elapsed_ms`.
 */
export function registerFreeResultRoute(
  app: FastifyInstance,
  limiter: RateLimiter,
  path: string,
  outcome: (id: string) => Promise<Presented<object>>,
  options: { paidBodyOf?: X402AppServices } = {},
): void {
  app.get(path, async (request, reply) => {
    const started = performance.now();
    await limiter.take('free', request.ip);
    const id = (request.params as { id: string }).id;
    if (!UUID.test(id)) throw fail('not_found', 'no such check');
    const response = await outcome(id.toLowerCase());
    if (response.status === 202) reply.header('retry-after', String(POLL_AFTER_SECONDS));
    if (response.status !== 200 || !options.paidBodyOf) return reply.status(response.status).send(response.body);
    const billing = x402Billing(options.paidBodyOf, null);
    return reply.status(200).send({ ...response.body, billing, elapsed_ms: Math.round(performance.now() - started) });
  });
}
