import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { REQUEST_ID_HEADER, requestIdFrom } from '../observability/request-id.js';
import { addRequestTracing } from '../observability/request-tracing.js';
import { answerX402RouterRefusal } from '../router-refusals.js';
import { isServiceError } from '../../domain/shared/errors.js';
import { capConnectionsPerClient, DEFAULT_SERVER_LIMITS, serverLimitOptions, type ServerLimits } from '../server-limits.js';
import type { SettlementResponse } from '../../domain/x402/x402-wire.js';
import { registerDocsPage } from '../docs-page.js';
import { x402ErrorBody } from '../errors.js';
import { parseJsonStrictly } from '../json-body.js';
import { quoteHeaderFor, sendReceipt } from './paid-route.js';
import { createRateLimiter } from './rate-limiter.js';
import { x402CheckAddressRoutes } from './check-address.x402.routes.js';
import { x402ExploreRoutes } from './explore.x402.routes.js';
import { registerMcpRoute } from './mcp/mcp-route.js';
import { registerJwksRoute } from '../routes/jwks.routes.js';
import { x402ScreenRoutes } from './screen.x402.routes.js';
import { x402TransferRoutes } from './transfer.x402.routes.js';
import type { X402AppServices } from './x402-services.js';
import { describeX402Routes, x402OpenApiOptions } from './x402-openapi.js';
import { checkVocabulary } from '../schemas/vocabulary-contract.js';
import { CHECK_RESPONSES_BY_DEFAULT, checkDeclaredStatuses, responseSerializerCompiler } from '../schemas/response-contract.js';
import { collectMethods, notFoundOrNotAllowed } from '../method-not-allowed.js';

/** Browsers' x402 clients need these readable and sendable across origins. */
const EXPOSED = 'PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE, Retry-After';
const ALLOWED = 'PAYMENT-SIGNATURE, X-PAYMENT, Access-Control-Expose-Headers, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id';

/**
 * The x402 pay-per-call API ({x402_url}): its own Fastify app on its own port, beside the V2 app. No
 * account, no Authorization: each paid call carries an EIP-3009 payment proof. Errors use the spec's x402
 * envelope and codes; every 402 carries a fresh quote in `payment-required`.
 */
export async function buildX402App(
  services: X402AppServices,
  options: {
    logger?: FastifyServerOptions['logger'];
    loggerInstance?: FastifyBaseLogger;
    limits?: ServerLimits;
    checkResponses?: boolean;
  } = {},
): Promise<FastifyInstance> {
  const limits = options.limits ?? DEFAULT_SERVER_LIMITS;
  const app = Fastify({
    ...serverLimitOptions(limits),
    logger: options.logger ?? false,
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : {}),
    // X-Forwarded-For is believed only for hops that are listed proxies, so a client cannot pick its bucket
    ...(services.trustedProxies.length > 0 ? { trustProxy: [...services.trustedProxies] } : {}),
    bodyLimit: 16 * 1024,
    // path parameters carry addresses of up to 120 characters (longer ones are address_invalid, not 414)
    routerOptions: { maxParamLength: 256 },
    return503OnClosing: true,
    genReqId: (request) => requestIdFrom(request.headers[REQUEST_ID_HEADER], () => services.deps.ids.newId()),
    logController: new LogController({ requestIdLogLabel: 'correlationId' }),
    frameworkErrors: answerX402RouterRefusal,
  });
  // The same X-Request-Id handling as the V2 app: echoed, and the correlation of the paid call's events.
  capConnectionsPerClient(app, limits.maxConnectionsPerClient); // first hook: a refused connection reaches nothing else
  const methods = collectMethods(app); // before any route: a known path under another method is 405
  addRequestTracing(app, { correlation: services.deps.correlation });
  parseJsonStrictly(app); // UTF-8 only, no repeated keys: refused before any quote or payment
  // The document: each route's schemas are attached as it is registered (x402-openapi.ts); bodies are
  // written as built, and checked against those schemas under the test runner.
  const checkResponses = options.checkResponses ?? CHECK_RESPONSES_BY_DEFAULT;
  app.setSerializerCompiler(responseSerializerCompiler(checkResponses));
  if (checkResponses) {
    checkDeclaredStatuses(app);
    checkVocabulary(app);
  }
  describeX402Routes(app);
  await app.register(swagger, x402OpenApiOptions);
  app.get('/openapi.json', { schema: { hide: true } }, (_request, reply) => reply.send(app.swagger()));
  await registerDocsPage(app, { title: 'Risk screening API · x402' });
  const limiter = createRateLimiter({ clock: services.deps.clock, ...services.limits, limits: services.rateLimits });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', EXPOSED);
  });
  app.options('*', async (_request, reply) =>
    reply.status(204).header('access-control-allow-methods', 'GET, POST, OPTIONS').header('access-control-allow-headers', ALLOWED).send(),
  );
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = x402ErrorBody(error);
    if (status >= 500) request.log.error({ err: error }, 'x402 request failed');
    const details = isServiceError(error) ? (error.details ?? {}) : {};
    if (details.receipt) sendReceipt(reply, details.receipt as SettlementResponse);
    if (status === 429) reply.header('retry-after', String(details.retryAfterSeconds ?? 60));
    if (status === 402) {
      const quote = quoteHeaderFor(request, services, isServiceError(error) ? error.code : 'payment_required');
      if (quote) reply.header('payment-required', quote).header('cache-control', 'no-store');
    }
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler(notFoundOrNotAllowed(methods));

  // Free, under the free calls' rate limit like the result routes; described in X402_ROUTE_SCHEMAS.
  registerJwksRoute(app, services.deps.receipts, { schema: {}, onRequest: async (request) => limiter.take('free', request.ip) });
  await app.register(x402ScreenRoutes, { services, limiter });
  if (services.pipeline) {
    await app.register(x402CheckAddressRoutes, { services, limiter, pipeline: services.pipeline });
    await app.register(x402ExploreRoutes, { services, limiter, pipeline: services.pipeline });
  }
  if (services.transfers) await app.register(x402TransferRoutes, { services, limiter, transfers: services.transfers });
  // The agents' door: MCP tools served by the routes above (see mcp/mcp-tools.ts)
  registerMcpRoute(app, { services, limiter });
  return app;
}
