import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { payForCall } from '../../commands/x402/pay-for-call.js';
import { PRODUCTS, type Product } from '../../domain/billing/products.js';
import { x402Envelope } from '../presenters/billing.presenter.js';
import { fail } from '../../domain/shared/errors.js';
import { microsToUsd } from '../../domain/shared/money.js';
import { quoteFor } from '../../domain/x402/quote.js';
import { decodePaymentHeader, encodeHeaderJson, type SettlementResponse } from '../../domain/x402/x402-wire.js';
import { answerBudget, type AnswerBudget } from './answer-budget.js';
import { restBodyDiscovery, restDiscovery } from './bazaar-discovery.js';
import { paidBodyResourceOf, paidOfferOf } from './paid-offers.js';
import { matchedPath } from '../matched-path.js';
import type { Presented } from '../presenters/presented.js';
import type { RateLimiter } from './rate-limiter.js';
import type { X402AppServices } from './x402-services.js';

/** What a paid x402 endpoint declares; the payment, rate limit, quote and receipt are handled here. */
export interface PaidResource<Params, Input> {
  readonly method?: 'GET' | 'POST';
  readonly product: Product;
  /** The quote's `resource.description`. */
  readonly description: string;
  /** Path parameters (and the body of a POST) → backend input; throws the spec's 400s before any quote. */
  parse(params: Params, body: unknown): Input;
  /** Client-side facts checked before the payment is touched (see PaidCall.precheck), within `budget.lookupMs()`. */
  precheck?(input: Input, budget: AnswerBudget): Promise<void>;
  /** Products paid once per subject (a transfer): the subject of this input. */
  subject?(input: Input): string;
  /** `paidBy`: the call whose payment covers this one (see PaidCall.run); a wait for a result stays within `budget`. */
  run(input: Input, context: { callId: string; paidBy: string; payer: string; budget: AnswerBudget }): Promise<Presented<object>>;
}

export interface PaidRouteConfig {
  readonly product: Product;
  readonly description: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on paid routes: every 402 of the route carries a fresh quote for it. */
    x402?: PaidRouteConfig;
  }
}

/** The payment proof: `X-PAYMENT` (the spec) or `PAYMENT-SIGNATURE` (what the reference v2 client sends). */
export function paymentHeaderOf(request: FastifyRequest): string | undefined {
  const value = request.headers['x-payment'] ?? request.headers['payment-signature'];
  return Array.isArray(value) ? value[0] : value;
}

export function registerPaidRoute<Params, Input>(
  app: FastifyInstance,
  context: { services: X402AppServices; limiter: RateLimiter },
  path: string,
  resource: PaidResource<Params, Input>,
): void {
  const { services, limiter } = context;
  const price = PRODUCTS[resource.product].priceMicros;
  const handler: RouteHandlerMethod = async (request, reply) => {
    const started = performance.now();
    const budget = answerBudget(services.deps.clock);
    const header = paymentHeaderOf(request);
    await limiter.take(header ? 'paid' : 'free', request.ip);
    const input = resource.parse(request.params as Params, request.body);
    if (!header) {
      throw fail(
        'payment_required',
        `this call costs ${microsToUsd(price)} USD: pay the quote in the payment-required header and send the proof in X-PAYMENT`,
      );
    }
    const payment = decodePaymentHeader(header);
    const callId = services.deps.ids.newId();
    const precheck = resource.precheck?.bind(resource);
    const { result, receipt } = await payForCall(services.deps, {
      callId,
      product: resource.product,
      resource: `${request.method} ${matchedPath(request)}`,
      ...(resource.subject ? { subject: resource.subject(input) } : {}),
      ...(precheck ? { precheck: () => precheck(input, budget) } : {}),
      payment,
      run: ({ paidBy, payer }) => resource.run(input, { callId, paidBy, payer, budget }),
    });
    if (receipt) sendReceipt(reply, receipt);
    const billing = x402Billing(services, receipt ? { receipt, priceMicros: price } : null);
    return reply.status(result.status).send({ ...result.body, billing, elapsed_ms: Math.round(performance.now() - started) });
  };
  app.route({
    method: resource.method ?? 'GET',
    url: path,
    config: { x402: { product: resource.product, description: resource.description } },
    handler,
  });
}

/**
 * The `billing` envelope of an x402 200: what this request was charged. `paid` is null when an earlier
 * payment covered it (an already paid transfer, or a free result fetch): nothing charged, `replay: true`.
 */
export function x402Billing(services: X402AppServices, paid: { receipt: SettlementResponse; priceMicros: number } | null) {
  const { caip2, asset } = services.deps.terms.network;
  return x402Envelope(
    { network: caip2, asset },
    paid && { priceMicros: paid.priceMicros, payer: paid.receipt.payer ?? null, transaction: paid.receipt.transaction },
  );
}

/** The settlement receipt, under the v2 name and the v1 name (clients read either). */
export function sendReceipt(reply: FastifyReply, receipt: SettlementResponse): void {
  const encoded = encodeHeaderJson(receipt);
  reply.header('payment-response', encoded).header('x-payment-response', encoded);
}

/** A fresh quote for the route of this request, or null on a route that is not paid. */
export function quoteHeaderFor(request: FastifyRequest, services: X402AppServices, error: string): string | null {
  const paid = request.routeOptions.config.x402;
  if (!paid) return null;
  const base = services.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
  const [offer, bodyResource, target] = [
    paidOfferOf(paid.product),
    paidBodyResourceOf(paid.product),
    { method: request.method, path: matchedPath(request) },
  ];
  // Bazaar discovery metadata, for the facilitator's catalogue and for agents
  const extensions = offer ? restDiscovery(offer, target) : bodyResource ? restBodyDiscovery(bodyResource, target) : undefined;
  return encodeHeaderJson({
    ...quoteFor(services.deps.terms, {
      priceMicros: PRODUCTS[paid.product].priceMicros,
      url: `${base}${matchedPath(request)}`,
      description: paid.description,
      error,
    }),
    ...(extensions ? { extensions } : {}),
  });
}
