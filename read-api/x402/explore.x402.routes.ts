import type { FastifyPluginAsync } from 'fastify';
import { startX402Explore, x402ExploreOutcome } from '../../commands/x402/x402-checks.js';
import { presentExploreDelivery, presentX402ExploreAccepted } from '../presenters/explore.presenter.js';
import { fail } from '../../domain/shared/errors.js';
import { present } from '../../domain/shared/present.js';
import type { PipelineApi } from '../pipeline-api.js';
import { exploreBody } from '../routes/explore.routes.js';
import { registerFreeResultRoute } from './free-route.js';
import { registerPaidRoute } from './paid-route.js';
import type { RateLimiter } from './rate-limiter.js';
import { parseAddressTarget } from './x402-input.js';
import type { X402AppServices } from './x402-services.js';

/**
 * POST /explore (the explore job's price, as on V2): an asynchronous graph exposure job, paid before it
 * is requested; 202 with `job_id` and the free GET /explore/{job_id}/result. The body is that of
 * POST /v2/explore (`address`, `network`, `direction`, `max_hops`, `max_nodes`); a malformed one is 400
 * `body_invalid`, before any quote.
 */
export const x402ExploreRoutes: FastifyPluginAsync<{ services: X402AppServices; limiter: RateLimiter; pipeline: PipelineApi }> = async (
  app,
  context,
) => {
  const { deps } = context.services;
  registerPaidRoute(app, context, '/explore', {
    method: 'POST',
    product: 'explore',
    description: 'Graph exposure job of an address (asynchronous report)',
    parse: (_params: unknown, body: unknown) => {
      const parsed = exploreBody.safeParse(body ?? {});
      if (!parsed.success) {
        const issue = present(parsed.error.issues[0], "a refused body's first issue");
        throw fail('body_invalid', `the body is not an explore request: ${issue.path.join('.') || '(body)'}: ${issue.message}`);
      }
      const { address, network } = parseAddressTarget({ chain: parsed.data.network, address: parsed.data.address });
      const max = context.pipeline.exploreMaxBudget;
      const budget = {
        ...max,
        maxHops: Math.min(parsed.data.max_hops ?? max.maxHops, max.maxHops),
        maxNodes: Math.min(parsed.data.max_nodes ?? max.maxNodes, max.maxNodes),
      };
      return { address, network, direction: parsed.data.direction, budget };
    },
    run: async (job, { callId }) => presentX402ExploreAccepted(await startX402Explore(deps, { jobId: callId, ...job })),
  });
  registerFreeResultRoute(app, context.limiter, '/explore/:id/result', async (jobId) =>
    presentExploreDelivery(await x402ExploreOutcome(deps, jobId), ''),
  );
};
