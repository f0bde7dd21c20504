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
 * GET /check-transfer/{chain}/{tx_hash} (0.50 USD, one payment per (chain, tx_hash)): waits up to 30 s,
 * then 200 with the full result or 202 with `check_id` and the free GET /check-transfer-result/{check_id}.
 * The transaction is looked up before the payment is touched: not found (or not mined yet) is 502
 * `tx_not_found`, not charged, and the proof stays usable. A second paid request for a transfer already
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
    precheck: (target) => assertTransferMined(transfers, target),
    run: async (target, { paidBy }) =>
      presentX402Transfer(await x402TransferOutcome(transfers, await startX402TransferCheck(transfers, { paidBy, ...target }), waitMs)),
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
