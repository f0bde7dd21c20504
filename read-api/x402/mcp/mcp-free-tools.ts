import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { x402CheckResultPath } from '../../../commands/x402/x402-checks.js';
import { x402TransferResultPath } from '../../../commands/x402/x402-transfer-checks.js';
import { isServiceError } from '../../../domain/shared/errors.js';
import { SCREEN_NETWORKS } from '../../../domain/shared/network.js';
import { X402_VERSION } from '../../../domain/x402/x402-wire.js';
import { x402ErrorBody } from '../../errors.js';
import type { X402AppServices } from '../x402-services.js';
import { PAID_OFFERS } from '../paid-offers.js';
import { offeredTools, priceOf, toolOutputOf, type McpCallContext } from './mcp-context.js';
import { callRestRoute, pathSegment } from './rest-door.js';
import { errorResult, servedResult } from './tool-results.js';

/** A result tool's answer is the paid tool's: the same caution, so that no agent reads unknown as clean. */
const READ_AS_PAID =
  'The result reads as the paid tool’s: its first text line says what was found and which sanctions lists were checked; risk_level "none" (or no alert) with coverage.data_available false means unknown, NOT clean.';

const checkIdInput = { check_id: z.string().describe('The check_id a paid call returned when its check outlived the call') };

/** The free tools: a running check's result (the REST free result paths) and the networks and prices. */
export function registerFreeTools(server: McpServer, context: McpCallContext): void {
  if (context.services.pipeline) registerResultTool(server, context, 'get_address_check_result', 'check_address', x402CheckResultPath);
  if (context.services.transfers)
    registerResultTool(server, context, 'get_transfer_check_result', 'check_transfer', x402TransferResultPath);
  registerNetworksTool(server, context);
}

function registerResultTool(
  server: McpServer,
  context: McpCallContext,
  name: string,
  product: 'check_address' | 'check_transfer',
  path: (id: string) => string,
): void {
  const offer = PAID_OFFERS[product];
  server.registerTool(
    name,
    {
      title: `Result of a running ${offer.tool} (free)`,
      description: `Free. The result of a ${offer.tool} call that returned a check_id: the full result once done, or status "running" (call again in a few seconds). The check_id is the only credential. ${READ_AS_PAID}`,
      inputSchema: checkIdInput,
      outputSchema: toolOutputOf(offer),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ check_id }) => {
      const answer = await callRestRoute(context.app, {
        url: path(pathSegment(check_id)),
        clientIp: context.clientIp,
        requestId: context.requestId,
      });
      return answer.status >= 400 ? errorResult(answer) : servedResult(answer, product, name);
    },
  );
}

function registerNetworksTool(server: McpServer, context: McpCallContext): void {
  server.registerTool(
    'list_networks',
    {
      title: 'Networks and prices (free)',
      description:
        'Free. The networks each tool accepts, the price of each paid tool, and how payment is made (x402 network, asset, recipient).',
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async () => {
      try {
        // awaited: harmless on this process's limiter, and right for a shared (asynchronous) one
        await context.limiter.take('free', context.clientIp);
      } catch (error) {
        if (!isServiceError(error)) throw error;
        const { status, body } = x402ErrorBody(error);
        return errorResult({ status, body, receipt: null, retryAfterSeconds: Number(error.details?.retryAfterSeconds ?? 60) });
      }
      const listing = networksAndPrices(context.services);
      return { structuredContent: listing, content: [{ type: 'text', text: JSON.stringify(listing) }] };
    },
  );
}

export function networksAndPrices(services: X402AppServices): Record<string, unknown> {
  const { terms } = services.deps;
  const transferChains = services.transfers?.decoder.chains() ?? [];
  return {
    payment: {
      x402_version: X402_VERSION,
      scheme: 'exact',
      network: terms.network.caip2,
      asset: terms.network.asset,
      pay_to: terms.payTo,
      max_timeout_seconds: terms.maxTimeoutSeconds,
    },
    paid_tools: offeredTools(services).map((offer) => ({
      tool: offer.tool,
      price_usd: priceOf(offer),
      chains: offer.product === 'check_transfer' ? transferChains : SCREEN_NETWORKS,
      ...(offer.resultTool ? { result_tool: offer.resultTool } : {}),
    })),
    free_tools: [
      ...(services.pipeline ? ['get_address_check_result'] : []),
      ...(services.transfers ? ['get_transfer_check_result'] : []),
      'list_networks',
    ],
  };
}
