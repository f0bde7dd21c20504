import type { FastifyPluginAsync } from 'fastify';
import { startX402AddressCheck, x402AddressCheckOutcome } from '../../commands/x402/x402-checks.js';
import type { PipelineApi } from '../pipeline-api.js';
import { presentX402Check } from '../presenters/address-check.presenter.js';
import { registerFreeResultRoute } from './free-route.js';
import { requireSanctionsList } from '../../domain/intel/sanctions-data.js';
import { registerPaidRoute } from './paid-route.js';
import type { RateLimiter } from './rate-limiter.js';
import { parseAddressTarget } from './x402-input.js';
import type { X402AppServices } from './x402-services.js';

/**
 * GET /check-address/{chain}/{address} (1.00 USD): the four-tier full check, paid before it is requested,
 * waiting up to 30 s for the verdict: 200 with it, or 202 with `check_id` and the free
 * GET /check-address-result/{check_id} (a hyphenated sibling, like the transfer check's result path).
 */
export const x402CheckAddressRoutes: FastifyPluginAsync<{
  services: X402AppServices;
  limiter: RateLimiter;
  pipeline: PipelineApi;
}> = async (app, context) => {
  const { deps, checkWaitMs } = context.services;
  registerPaidRoute(app, context, '/check-address/:chain/:address', {
    product: 'check_address',
    description: 'Full check of an address: sanctions, consensus, one hop and graph exposure',
    parse: (params: { chain: string; address: string }) => {
      const target = parseAddressTarget(params);
      requireSanctionsList(deps.intel); // no sanctions list: 502 before any quote or settlement
      return target;
    },
    run: async (target, { callId, budget }) => {
      await startX402AddressCheck(deps, { checkId: callId, ...target, budget: context.pipeline.checkBudget });
      return presentX402Check(await x402AddressCheckOutcome(deps, callId, budget.waitMs(checkWaitMs)));
    },
  });
  registerFreeResultRoute(
    app,
    context.limiter,
    '/check-address-result/:id',
    async (checkId) => presentX402Check(await x402AddressCheckOutcome(deps, checkId, 0)),
    {
      paidBodyOf: context.services,
    },
  );
};
