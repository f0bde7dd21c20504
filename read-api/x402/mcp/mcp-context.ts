import { present } from '../../../domain/shared/present.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PRODUCTS } from '../../../domain/billing/products.js';
import { microsToUsd } from '../../../domain/shared/money.js';
import { PAID_OFFERS, runningCheck, type PaidOffer } from '../paid-offers.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { X402AppServices } from '../x402-services.js';

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

export const priceOf = (offer: PaidOffer) => microsToUsd(PRODUCTS[offer.product].priceMicros);

// The REST body's own schema (nested objects exactly as the REST contract describes them), its top-level
// fields optional and open: the same schema must also accept the running check (202) and the tool errors
// (the SDK's client validates an error's structured content against it too). Built once per offer.
const toolOutputs = new Map<PaidOffer, z.ZodObject>();
export function toolOutputOf(offer: PaidOffer): z.ZodObject {
  if (!toolOutputs.has(offer)) toolOutputs.set(offer, z.looseObject({ ...offer.body.shape, ...runningCheck }).partial());
  return present(toolOutputs.get(offer), 'set just above when absent');
}

/** The paid tools this deployment serves: the same condition as their REST routes. */
export function offeredTools(services: X402AppServices): PaidOffer[] {
  return [
    PAID_OFFERS.screen,
    ...(services.pipeline ? [PAID_OFFERS.check_address] : []),
    ...(services.transfers ? [PAID_OFFERS.check_transfer] : []),
  ];
}
