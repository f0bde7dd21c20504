import type { FastifyPluginAsync } from 'fastify';
import type { TransferCheckDeps } from '../../commands/kyt/transfer-check-deps.js';
import { assertTransferMined, startX402TransferCheck, x402TransferOutcome } from '../../commands/x402/x402-transfer-checks.js';
import { presentX402Transfer } from '../presenters/transfer.presenter.js';
import { registerFreeResultRoute } from './free-route.js';
import { registerPaidRoute } from './paid-route.js';
import type { RateLimiter } from './rate-limiter.js';
import { parseTransferTarget } from './x402-input.js';
import type { X402AppServices } from './x402-services.js';

/**
 * GET /check-transfer/{chain}/{tx_hash} (0.50 USD, one payment per (chain, tx_hash)): answers within 30 s of
 * its arrival (answer-budget.ts), with 200 and the full result or 202 with `check_id` and the free GET
 * /check-transfer-result/{check_id}. The transaction is looked up before the payment is touched: not found
 * (or not mined yet) is 502 `tx_not_found`, and a lookup still unanswered when settling must begin is 502
 * `backend_unavailable`; neither is charged, and the proof stays usable. A second paid request for a transfer already
 * paid for is served without settling its proof (and runs the check again if the paid one failed).
 */
export const x402TransferRoutes: FastifyPluginAsync<{
  services: X402AppServices;
  limiter: RateLimiter;
  transfers: TransferCheckDeps;
}> = async (app, context) => {
  const { transfers } = context;
  const waitMs = context.services.checkWaitMs;
  registerPaidRoute(app, context, '/check-transfer/:chain/:tx_hash', {
    product: 'check_transfer',
    description: 'Transfer check (KYT): exposure of every sender, the standard policy and its alerts',
    parse: (params: { chain: string; tx_hash: string }) => parseTransferTarget(params, transfers.decoder.chains()),
    subject: (target) => `${target.chain}:${target.txHash}`,
    precheck: (target, budget) => assertTransferMined(transfers, target, budget.lookupMs()),
    run: async (target, { paidBy, budget }) => {
      const checkId = await startX402TransferCheck(transfers, { paidBy, ...target });
      return presentX402Transfer(await x402TransferOutcome(transfers, checkId, budget.waitMs(waitMs)));
    },
  });
  registerFreeResultRoute(
    app,
    context.limiter,
    '/check-transfer-result/:id',
    async (checkId) => presentX402Transfer(await x402TransferOutcome(transfers, checkId, 0)),
    {
      paidBodyOf: context.services,
    },
  );
};
