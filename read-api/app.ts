import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { registerDocsPage } from './docs-page.js';
import { errorHandler } from './errors.js';
import { parseJsonStrictly } from './json-body.js';
import { answerRouterRefusal } from './router-refusals.js';
import { dashboardRoutes } from './dashboard/dashboard.routes.js';
import { billingRoutes } from './routes/billing.routes.js';
import { checkAddressRoutes } from './routes/check-address.routes.js';
import { exploreRoutes } from './routes/explore.routes.js';
import { metricsRoutes } from './observability/metrics.routes.js';
import { REQUEST_ID_HEADER, requestIdFrom } from './observability/request-id.js';
import { addRequestTracing } from './observability/request-tracing.js';
import { CompletionLogController } from './observability/completion-log-controller.js';
import { inspectRoutes } from './routes/inspect.routes.js';
import { monitorRoutes } from './routes/monitors.routes.js';
import { screenRoutes } from './routes/screen.routes.js';
import { systemRoutes } from './routes/system.routes.js';
import { transferCheckRoutes } from './routes/transfer-check.routes.js';
import { webhookRoutes } from './routes/webhooks.routes.js';
import { alertRoutes } from './routes/alerts.routes.js';
import { policyRoutes } from './routes/policies.routes.js';
import { registerJwksRoute } from './routes/jwks.routes.js';
import { verdictRoutes } from './routes/verdicts.routes.js';
import { jwksSchema } from './schemas/receipts.js';
import { errorResponses } from './schemas/errors.js';
import type { AppServices } from './services.js';
import { zodValidatorCompiler } from './validation.js';
import { checkVocabulary } from './schemas/vocabulary-contract.js';
import { CHECK_RESPONSES_BY_DEFAULT, checkDeclaredStatuses, responseSerializerCompiler } from './schemas/response-contract.js';
import { capConnectionsPerClient, DEFAULT_SERVER_LIMITS, serverLimitOptions, type ServerLimits } from './server-limits.js';
import { collectMethods, notFoundOrNotAllowed } from './method-not-allowed.js';
import { API_VERSION } from './api-version.js';

/** Bodies of the V2 API are small JSON objects; anything larger is refused with 413. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Builds the HTTP app (no listening: read-api/server.ts does that, tests use inject). `loggerInstance`: the
 * service's one logger (infra/system/logger.ts); request log lines carry the request's `correlationId`.
 */
export async function buildApp(
  services: AppServices,
  options: {
    logger?: FastifyServerOptions['logger'];
    loggerInstance?: FastifyBaseLogger;
    limits?: ServerLimits;
    checkResponses?: boolean;
    /** false: GET /metrics is served on a listener of its own (observability/metrics-app.ts), not here. */
    serveMetrics?: boolean;
    /** Proxies whose X-Forwarded-For names the client (request.ip: the login throttle's address). */
    trustedProxies?: readonly string[];
  } = {},
): Promise<FastifyInstance> {
  const limits = options.limits ?? DEFAULT_SERVER_LIMITS;
  const app = Fastify({
    ...serverLimitOptions(limits),
    logger: options.logger ?? false,
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : {}),
    ...(options.trustedProxies?.length ? { trustProxy: [...options.trustedProxies] } : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    // a monitor change's verdict id `{monitor_id}:{change}` (GET /v2/verdicts/{id}) runs past the default 100
    routerOptions: { maxParamLength: 256 },
    return503OnClosing: true,
    genReqId: (request) => requestIdFrom(request.headers[REQUEST_ID_HEADER], () => services.commands.ids.newId()),
    // One line per request, at completion; it carries the id as `correlationId`, the name processors and events use for it.
    logController: new CompletionLogController(),
    frameworkErrors: answerRouterRefusal,
  });
  capConnectionsPerClient(app, limits.maxConnectionsPerClient); // first hook: a refused connection reaches nothing else
  const methods = collectMethods(app); // before any route: a known path under another method is 405
  addRequestTracing(app, { correlation: services.correlation, metrics: services.metrics });
  app.decorateRequest('caller', null);
  // The API speaks JSON only: any other body is 415, not a string for the validators to puzzle over.
  app.removeContentTypeParser('text/plain');
  parseJsonStrictly(app);
  app.setValidatorCompiler(zodValidatorCompiler);
  // Bodies are written as built; under test each is also checked against its route's documented schema.
  const checkResponses = options.checkResponses ?? CHECK_RESPONSES_BY_DEFAULT;
  app.setSerializerCompiler(responseSerializerCompiler(checkResponses));
  if (checkResponses) {
    checkDeclaredStatuses(app);
    checkVocabulary(app);
  }
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundOrNotAllowed(methods));

  await app.register(swagger, {
    openapi: {
      info: { title: 'Risk screening service', version: API_VERSION, description: 'AML / KYT screening of addresses and transfers' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  app.get('/v2/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await registerDocsPage(app, { title: 'Risk screening API · V2' });

  if (services.metrics && options.serveMetrics !== false) await app.register(metricsRoutes(services.metrics));
  await app.register(systemRoutes, { services });
  registerJwksRoute(app, services.commands.receipts, {
    schema: {
      summary: 'The public keys of verdict receipts (JWKS)',
      tags: ['system'],
      security: [],
      response: { 200: jwksSchema, ...errorResponses(['rate_limit_exceeded', 'internal_error']) },
    },
  });
  for (const routes of [screenRoutes, billingRoutes, checkAddressRoutes, exploreRoutes, inspectRoutes, transferCheckRoutes, webhookRoutes])
    await app.register(routes, { services });
  if (services.monitors) await app.register(monitorRoutes, { services, monitors: services.monitors });
  for (const routes of [alertRoutes, policyRoutes, verdictRoutes]) await app.register(routes, { services });
  await app.register(dashboardRoutes(services));
  return app;
}
