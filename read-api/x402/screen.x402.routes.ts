import type { FastifyPluginAsync } from 'fastify';
import { screenReceipt, screenVerdictOf } from '../../commands/screen-address.js';
import { requireSanctionsList } from '../../domain/intel/sanctions-data.js';
import { presentScreenVerdict } from '../presenters/screen.presenter.js';
import { registerPaidRoute } from './paid-route.js';
import type { RateLimiter } from './rate-limiter.js';
import { parseAddressTarget } from './x402-input.js';
import type { X402AppServices } from './x402-services.js';

/** GET /screen/{chain}/{address}: the light screen (same verdict as POST /v2/screen), 0.10 USD. */
export const x402ScreenRoutes: FastifyPluginAsync<{ services: X402AppServices; limiter: RateLimiter }> = async (app, context) => {
  registerPaidRoute(app, context, '/screen/:chain/:address', {
    product: 'screen',
    description: 'Light screen of an address: sanctions and consensus labels, no graph',
    parse: (params: { chain: string; address: string }) => {
      const target = parseAddressTarget(params);
      requireSanctionsList(context.services.deps.intel); // no sanctions list: 502 before any quote or settlement
      return target;
    },
    run: async (target, { callId, payer }) => {
      const verdict = await screenVerdictOf(context.services.deps, target);
      return presentScreenVerdict(
        verdict,
        await screenReceipt(context.services.deps, { verdictId: callId, caller: { kind: 'x402_payer', id: payer } }, verdict),
      );
    },
  });
};
