import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRODUCTS } from '../../../domain/billing/products.js';
import { isServiceError } from '../../../domain/shared/errors.js';
import { microsToUsd } from '../../../domain/shared/money.js';
import { SCREEN_NETWORKS } from '../../../domain/shared/network.js';
import { quoteFor } from '../../../domain/x402/quote.js';
import { encodeHeaderJson, X402_VERSION } from '../../../domain/x402/x402-wire.js';
import { x402ErrorBody } from '../../errors.js';
import { mcpDiscovery } from '../bazaar-discovery.js';
import { PAID_OFFERS, runningCheck, type PaidOffer } from '../paid-offers.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { X402AppServices } from '../x402-services.js';
import { callRestRoute, pathSegment, type RestAnswer } from './rest-door.js';
import { errorResult, PAYMENT_META, paymentChallenge, servedResult } from './tool-results.js';

/** One MCP request's view of the x402 app: who calls, and the app whose REST routes serve the tools. */
export interface McpCallContext {
  readonly app: FastifyInstance;
  readonly services: X402AppServices;
  readonly limiter: RateLimiter;
  readonly clientIp: string;
  readonly requestId: string;
  /** The public base of this app, e.g. `https://x402.example.com` (the MCP quote's `resource.url` is `{base}/mcp`). */
  readonly baseUrl: string;
}

const checkIdInput = { check_id: z.string().describe('The check_id a paid call returned when its check outlived the call') };
const priceOf = (offer: PaidOffer) => microsToUsd(PRODUCTS[offer.product].priceMicros);

/** The paid tools this deployment serves: the same condition as their REST routes. */
export function offeredTools(services: X402AppServices): PaidOffer[] {
  return [PAID_OFFERS.screen, ...(services.pipeline ? [PAID_OFFERS.check_address] : []), ...(services.transfers ? [PAID_OFFERS.check_transfer] : [])];
}

/**
 * The agents' door: an MCP server whose paid tools are the REST x402 routes, called in process. A tool
 * call without `_meta["x402/payment"]` gets the x402 challenge with a fresh quote for the tool's price
 * (and its Bazaar metadata); with a proof it is verified, reserved, settled and served by the REST route.
 */
export function buildMcpServer(context: McpCallContext): McpServer {
  const server = new McpServer(
    { name: 'risk-screening-x402', version: '1.0.0' },
    { instructions: 'Blockchain AML/KYT risk screening, paid per call with x402 (USDC). Call list_networks for prices and networks; the paid tools answer an unpaid call with an x402 quote.' },
  );
  for (const offer of offeredTools(context.services)) registerPaidTool(server, context, offer);
  if (context.services.pipeline) registerResultTool(server, context, 'get_address_check_result', 'check_address', (id) => `/check-address-result/${id}`);
  if (context.services.transfers) registerResultTool(server, context, 'get_transfer_check_result', 'check_transfer', (id) => `/check-transfer-result/${id}`);
  registerNetworksTool(server, context);
  return server;
}

function registerPaidTool(server: McpServer, context: McpCallContext, offer: PaidOffer): void {
  server.registerTool(
    offer.tool,
    {
      title: offer.title,
      description: `${offer.description} Costs ${priceOf(offer).toFixed(2)} USD, paid per call with x402: an unpaid call returns the quote to sign; send the payment in _meta["${PAYMENT_META}"].`,
      inputSchema: offer.input,
      // Every field optional: the same schema must also accept the running check (202) and the tool errors
      // (the SDK's client validates an error's structured content against it too).
      outputSchema: offer.output.extend(runningCheck).partial(),
      annotations: { title: offer.title, readOnlyHint: true, openWorldHint: true },
      _meta: { 'x402/price_usd': priceOf(offer) },
    },
    async (args: Record<string, unknown>, extra) => {
      const url = offer.routeTemplate.replace(/:(\w+)/g, (_match, name: string) => pathSegment(String(args[name] ?? '')));
      const payment = paymentHeaderFrom(extra._meta?.[PAYMENT_META]);
      const answer = await callRestRoute(context.app, { url, clientIp: context.clientIp, requestId: context.requestId, ...(payment ? { payment } : {}) });
      if (answer.status === 402) return paymentChallenge(quoteForTool(context, offer, answer), challengeMessage(offer, answer), answer.receipt);
      if (answer.status >= 400) return errorResult(answer);
      return servedResult(answer, offer.resultTool);
    },
  );
}

/** The proof as the REST route reads it: a payload object (the transport's form) or an already encoded header. */
function paymentHeaderFrom(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : encodeHeaderJson(value);
}

function quoteForTool(context: McpCallContext, offer: PaidOffer, answer: RestAnswer): Record<string, unknown> {
  const code = errorCodeOf(answer) ?? 'payment_required';
  return {
    ...quoteFor(context.services.deps.terms, { priceMicros: PRODUCTS[offer.product].priceMicros, url: `${context.baseUrl}/mcp`, description: offer.description, error: code }),
    extensions: mcpDiscovery(offer),
  };
}

function challengeMessage(offer: PaidOffer, answer: RestAnswer): string {
  const message = (answer.body.error as { message?: string } | undefined)?.message;
  return message ?? `${offer.tool} costs ${priceOf(offer).toFixed(2)} USD: sign the quote (scheme exact, EIP-3009) and call again with the payment payload in _meta["${PAYMENT_META}"]`;
}

const errorCodeOf = (answer: RestAnswer): string | undefined => (answer.body.error as { code?: string } | undefined)?.code;

function registerResultTool(server: McpServer, context: McpCallContext, name: string, product: 'check_address' | 'check_transfer', path: (id: string) => string): void {
  const offer = PAID_OFFERS[product];
  server.registerTool(
    name,
    {
      title: `Result of a running ${offer.tool} (free)`,
      description: `Free. The result of a ${offer.tool} call that returned a check_id: the full result once done, or status "running" (call again in a few seconds). The check_id is the only credential.`,
      inputSchema: checkIdInput,
      outputSchema: offer.output.extend(runningCheck).partial(),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ check_id }) => {
      const answer = await callRestRoute(context.app, { url: path(pathSegment(check_id)), clientIp: context.clientIp, requestId: context.requestId });
      return answer.status >= 400 ? errorResult(answer) : servedResult(answer, name);
    },
  );
}

function registerNetworksTool(server: McpServer, context: McpCallContext): void {
  server.registerTool(
    'list_networks',
    {
      title: 'Networks and prices (free)',
      description: 'Free. The networks each tool accepts, the price of each paid tool, and how payment is made (x402 network, asset, recipient).',
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
    payment: { x402_version: X402_VERSION, scheme: 'exact', network: terms.network.caip2, asset: terms.network.asset, pay_to: terms.payTo, max_timeout_seconds: terms.maxTimeoutSeconds },
    paid_tools: offeredTools(services).map((offer) => ({
      tool: offer.tool,
      price_usd: priceOf(offer),
      chains: offer.product === 'check_transfer' ? transferChains : SCREEN_NETWORKS,
      ...(offer.resultTool ? { result_tool: offer.resultTool } : {}),
    })),
    free_tools: [...(services.pipeline ? ['get_address_check_result'] : []), ...(services.transfers ? ['get_transfer_check_result'] : []), 'list_networks'],
  };
}
