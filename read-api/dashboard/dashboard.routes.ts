import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isServiceError } from '../../domain/shared/errors.js';
import { errorBody, errorHandler } from '../errors.js';
import type { AppServices } from '../services.js';
import { accountRoutes } from './account.routes.js';
import { DASHBOARD_CSS } from './assets/dashboard.css.js';
import { DASHBOARD_JS } from './assets/dashboard.js.js';
import { createBoundedWork } from './bounded-work.js';
import { createLoginThrottle } from './login-throttle.js';
import { loginRoutes } from './login.routes.js';
import { errorPage } from './pages/layout.js';
import { checkCsrf, CSRF_HEADER, requireUser, sessionUser } from './session-auth.js';
import { webhookDashboardRoutes } from './webhooks.routes.js';
import { workbenchRoutes } from './workbench/workbench.routes.js';

/** No CDN, no inline script or style: everything the pages use comes from this origin. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const FORM_BODY_LIMIT = 8 * 1024;

/**
 * The account dashboard at the service's app URL: server-rendered pages (login, Account → API and
 * Usage, Webhooks) and the JSON actions under /api that their script calls. Pages answer errors as
 * HTML (a missing login redirects to /login), /api as the V2 error envelope.
 */
export function dashboardRoutes(services: AppServices): FastifyPluginAsync {
  return async (app) => {
    const throttle = createLoginThrottle({
      clock: services.commands.clock,
      maxFailures: services.dashboard.settings.loginMaxFailures,
      windowMs: services.dashboard.settings.loginWindowMs,
    });
    const passwordChecks = createBoundedWork({
      maxConcurrent: services.dashboard.settings.loginMaxConcurrentChecks,
      maxQueued: services.dashboard.settings.loginMaxQueuedChecks,
    });
    // Only the dashboard's own forms post form-encoded bodies; the parser exists in this scope alone.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, formFields(body as string)),
    );
    app.decorateRequest('dashboardUser', null);
    app.addHook('onRequest', async (request) => {
      request.dashboardUser = await sessionUser(request, services);
    });
    // Decided on the route that matched, never on the raw URL (which may spell its path percent-encoded):
    // every /api action needs a session, and every state change on any dashboard route the session's CSRF
    // token (header or form field), checked before the body is validated.
    app.addHook('preValidation', async (request) => {
      const changes = !SAFE_METHODS.has(request.method);
      if (request.routeOptions.config.ownCsrf || (!changes && !isApiRoute(request))) return;
      const user = requireUser(request);
      if (changes) checkCsrf(request, user.csrfToken, headerOf(request, CSRF_HEADER) ?? formField(request.body, 'csrf'));
    });
    app.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'same-origin');
      reply.header('x-frame-options', 'DENY');
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
    app.setErrorHandler((error: FastifyError, request, reply) =>
      isApiRoute(request) ? errorHandler(error, request, reply) : pageError(error, request, reply),
    );

    const asset = (type: string, body: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.type(type).header('cache-control', 'public, max-age=300').send(body);
    app.get('/dashboard/assets/dashboard.css', { schema: { hide: true } }, asset('text/css; charset=utf-8', DASHBOARD_CSS));
    app.get('/dashboard/assets/dashboard.js', { schema: { hide: true } }, asset('text/javascript; charset=utf-8', DASHBOARD_JS));

    await app.register(loginRoutes(services, throttle, passwordChecks));
    await app.register(accountRoutes(services));
    await app.register(webhookDashboardRoutes(services));
    await app.register(workbenchRoutes(services));
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A dashboard route that checks its own CSRF token: the login form (double submit, no session yet) and logout. */
    ownCsrf?: true;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The JSON actions: a route under /api/ (the pattern that matched, so `/%61pi/keys` is one too). */
const isApiRoute = (request: FastifyRequest): boolean => request.routeOptions.url?.startsWith('/api/') === true;

function formField(body: unknown, name: string): string | undefined {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * A form's fields; a name sent more than once (a group of checkboxes) is a list of its values, so that
 * nothing is silently dropped and a field the form sends once is refused when repeated.
 */
export function formFields(body: string): Record<string, string | string[]> {
  const fields = new Map<string, string | string[]>();
  for (const [name, value] of new URLSearchParams(body)) {
    const earlier = fields.get(name);
    fields.set(name, earlier === undefined ? value : [...[earlier].flat(), value]);
  }
  return Object.fromEntries(fields); // own properties only: a field named __proto__ stays a field
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Errors of a page, as a page: log in first, or a plain 404 for what the user may not see. */
function pageError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (isServiceError(error) && error.code === 'login_required') {
    return reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 303);
  }
  const status = isServiceError(error) ? errorBody(error).status : (error.statusCode ?? 500);
  if (status >= 500) request.log.error({ err: error }, 'dashboard page failed');
  const [title, message] =
    status === 404
      ? ['Not found', 'There is nothing here, or you are not allowed to see it.']
      : status < 500
        ? ['Request refused', isServiceError(error) ? error.message : 'The request was not valid.']
        : ['Something went wrong', 'The page could not be shown. Try again in a moment.'];
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(errorPage(request.dashboardUser, status, title, message).value);
}
