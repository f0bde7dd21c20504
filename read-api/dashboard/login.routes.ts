import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { endSession, startSession } from '../../commands/dashboard-sessions.commands.js';
import type { ErrorCode } from '../../domain/shared/errors.js';
import { HTTP_STATUS } from '../errors.js';
import type { AppServices } from '../services.js';
import { parseCookies, serializeCookie } from './cookies.js';
import type { BoundedWork } from './bounded-work.js';
import type { LoginThrottle } from './login-throttle.js';
import { loginPage } from './pages/login.page.js';
import { HOME, safeNext } from './safe-next.js';
import { checkCsrf, isSecureRequest, sameToken, setSessionCookie } from './session-auth.js';

const LOGIN_CSRF_COOKIE = 'svc_login_csrf';

const loginForm = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
  csrf: z.string().max(128),
  next: z.string().max(2048).optional(),
});

/** `45 seconds`, `3 minutes`. */
const inWords = (seconds: number): string => {
  const [n, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
};

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** GET/POST /login, POST /logout and the root redirect. `checks`: the bounded queue of password checks. */
export function loginRoutes(services: AppServices, throttle: LoginThrottle, checks: BoundedWork): FastifyPluginAsync {
  const { dashboard } = services;
  // Unknown emails cost one verification too, so response time does not tell which emails have accounts.
  let dummyHash: Promise<string> | null = null;
  const verifyAgainstNothing = async (password: string) => {
    dummyHash ??= dashboard.passwords.hash('no account has this password');
    await dashboard.passwords.verify(password, await dummyHash);
    return false;
  };

  /** The login form, with a fresh double-submit token (the login CSRF defence: there is no session yet). */
  function renderLogin(
    request: FastifyRequest,
    reply: FastifyReply,
    view: { next: string; email?: string; problem?: ErrorCode; message?: string },
  ) {
    const csrf = hex(services.commands.random.bytes(32));
    reply.header(
      'set-cookie',
      serializeCookie(LOGIN_CSRF_COOKIE, csrf, {
        path: '/login',
        maxAge: 3600,
        sameSite: 'Strict',
        secure: isSecureRequest(request, dashboard.settings.cookieSecure),
      }),
    );
    const page = loginPage({
      csrf,
      next: view.next,
      ...(view.email ? { email: view.email } : {}),
      ...(view.message ? { error: view.message } : {}),
    });
    return reply
      .status(view.problem ? HTTP_STATUS[view.problem] : 200)
      .type('text/html; charset=utf-8')
      .send(page.value);
  }

  return async (app) => {
    app.get('/', { schema: { hide: true } }, async (request, reply) => reply.redirect(request.dashboardUser ? HOME : '/login', 303));

    app.get('/login', { schema: { hide: true } }, async (request, reply) => {
      const next = safeNext((request.query as { next?: unknown }).next);
      if (request.dashboardUser) return reply.redirect(next, 303);
      return renderLogin(request, reply, { next });
    });

    app.post('/login', { schema: { hide: true }, config: { ownCsrf: true } }, async (request, reply) => {
      const parsed = loginForm.safeParse(request.body);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const next = safeNext(body.next);
      const email = typeof body.email === 'string' ? body.email.trim().slice(0, 320) : '';
      if (!parsed.success)
        return renderLogin(request, reply, {
          next,
          email,
          problem: 'validation_error',
          message: 'Enter your email address and your password.',
        });
      const expected = parseCookies(request.headers.cookie)[LOGIN_CSRF_COOKIE];
      if (!expected || !sameToken(parsed.data.csrf, expected)) {
        return renderLogin(request, reply, {
          next,
          email,
          problem: 'csrf_failed',
          message: 'The login form expired. Please enter your password again.',
        });
      }
      // Counted before the slow check: concurrent attempts cannot get past the limit while others hash.
      const attempt = throttle.reserve(email, request.ip);
      if ('retryAfterMs' in attempt) {
        const seconds = Math.ceil(attempt.retryAfterMs / 1000);
        reply.header('retry-after', String(seconds));
        return renderLogin(request, reply, {
          next,
          email,
          problem: 'too_many_attempts',
          message: `Too many failed attempts from here. Try again in ${inWords(seconds)}.`,
        });
      }
      const checked = await checks.run(async () => {
        const account = await services.accounts.byEmail(email);
        const verified = account?.passwordHash
          ? await dashboard.passwords.verify(parsed.data.password, account.passwordHash)
          : await verifyAgainstNothing(parsed.data.password);
        return verified ? account : null;
      });
      if (!checked) {
        // Too many checks running and waiting: refuse now rather than queue without end; not a failure.
        attempt.cancel();
        reply.header('retry-after', '1');
        return renderLogin(request, reply, {
          next,
          email,
          problem: 'too_many_attempts',
          message: 'Too many logins at once. Try again in a moment.',
        });
      }
      const account = checked.value;
      if (!account) {
        attempt.failed();
        return renderLogin(request, reply, { next, email, problem: 'invalid_credentials', message: 'Wrong email address or password.' });
      }
      attempt.succeeded();
      const session = await startSession(services.commands, account.userId, dashboard.settings.sessionTtlMs);
      await services.whenProjected(session.position);
      setSessionCookie(reply, request, services, session.token);
      return reply.redirect(next, 303);
    });

    app.post('/logout', { schema: { hide: true }, config: { ownCsrf: true } }, async (request, reply) => {
      const user = request.dashboardUser;
      if (user) {
        checkCsrf(request, user.csrfToken, (request.body as { csrf?: string } | undefined)?.csrf);
        await services.whenProjected(await endSession(services.commands, user.sessionId, user.userId));
      }
      setSessionCookie(reply, request, services, null);
      return reply.redirect('/login', 303);
    });
  };
}
