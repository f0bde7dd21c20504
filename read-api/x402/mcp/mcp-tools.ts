import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PRODUCTS } from '../../../domain/billing/products.js';
import { quoteFor } from '../../../domain/x402/quote.js';
import { encodeHeaderJson } from '../../../domain/x402/x402-wire.js';
import { mcpDiscovery } from '../bazaar-discovery.js';
import type { PaidOffer } from '../paid-offers.js';
import { offeredTools, priceOf, toolOutputOf, type McpCallContext } from './mcp-context.js';
import { registerFreeTools } from './mcp-free-tools.js';
import { callRestRoute, pathSegment, type RestAnswer } from './rest-door.js';
import { errorResult, PAYMENT_META, paymentChallenge, servedResult } from './tool-results.js';

/**
 * The agents' door: an MCP server whose paid tools are the REST x402 routes, called in process. A tool
 * call without `_meta["x402/payment"]` gets the x402 challenge with a fresh quote for the tool's price
 * (and its Bazaar metadata); with a proof it is verified, reserved, settled and served by the REST route.
 */
export function buildMcpServer(context: McpCallContext): McpServer {
  const server = new McpServer(
    { name: 'risk-screening-x402', version: '1.0.0' },
    {
      instructions:
        'Blockchain AML/KYT risk screening, paid per call with x402 (USDC). Call list_networks for prices and networks; the paid tools answer an unpaid call with an x402 quote.',
    },
  );
  for (const offer of offeredTools(context.services)) registerPaidTool(server, context, offer);
  registerFreeTools(server, context);
  return server;
}

function registerPaidTool(server: McpServer, context: McpCallContext, offer: PaidOffer): void {
  server.registerTool(
    offer.tool,
    {
      title: offer.title,
      description: `${offer.description} Costs ${priceOf(offer).toFixed(2)} USD, paid per call with x402: an unpaid call returns the quote to sign; send the payment in _meta["${PAYMENT_META}"].`,
      inputSchema: offer.input,
      outputSchema: toolOutputOf(offer),
      annotations: { title: offer.title, readOnlyHint: true, openWorldHint: true },
      _meta: { 'x402/price_usd': priceOf(offer) },
    },
    async (args: Record<string, unknown>, extra) => {
      const url = offer.routeTemplate.replace(/:(\w+)/g, (_match, name: string) => pathSegment(String(args[name] ?? '')));
      const payment = paymentHeaderFrom(extra._meta?.[PAYMENT_META]);
      const answer = await callRestRoute(context.app, {
        url,
        clientIp: context.clientIp,
        requestId: context.requestId,
        ...(payment ? { payment } : {}),
      });
      if (answer.status === 402)
        return paymentChallenge(quoteForTool(context, offer, answer), challengeMessage(offer, answer), answer.receipt);
      if (answer.status >= 400) return errorResult(answer);
      return servedResult(answer, offer.product, offer.resultTool);
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
    ...quoteFor(context.services.deps.terms, {
      priceMicros: PRODUCTS[offer.product].priceMicros,
      url: `${context.baseUrl}/mcp`,
      description: offer.description,
      error: code,
    }),
    extensions: mcpDiscovery(offer),
  };
}

function challengeMessage(offer: PaidOffer, answer: RestAnswer): string {
  const message = (answer.body.error as { message?: string } | undefined)?.message;
  return (
    message ??
    `${offer.tool} costs ${priceOf(offer).toFixed(2)} USD: sign the quote (scheme exact, EIP-3009) and call again with the payment payload in _meta["${PAYMENT_META}"]`
  );
}

const errorCodeOf = (answer: RestAnswer): string | undefined => (answer.body.error as { code?: string } | undefined)?.code;
