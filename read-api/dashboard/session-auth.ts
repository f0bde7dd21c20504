import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Membership } from '../../domain/accounts/account.decider.js';
import { csrfTokenOf, sessionIdOf, SESSION_TOKEN } from '../../domain/sessions/session-token.js';
import { fail } from '../../domain/shared/errors.js';
import type { AppServices } from '../services.js';
import { parseCookies, serializeCookie } from './cookies.js';

export const SESSION_COOKIE = 'svc_session';
export const CSRF_HEADER = 'x-csrf-token';

/** The logged-in user of a dashboard request. */
export interface DashboardUser {
  readonly userId: string;
  readonly email: string;
  readonly displayName: string;
  readonly superAdmin: boolean;
  readonly memberships: readonly Membership[];
  readonly sessionId: string;
  readonly csrfToken: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    dashboardUser: DashboardUser | null;
  }
}

/** The session cookie's user, or null when there is no live session (absent, ended, expired, unknown). */
export async function sessionUser(request: FastifyRequest, services: AppServices): Promise<DashboardUser | null> {
  const token = parseCookies(request.headers.cookie)[SESSION_COOKIE];
  if (!token || !SESSION_TOKEN.test(token)) return null;
  const sessionId = sessionIdOf(token);
  const session = await services.dashboard.sessions.live(sessionId, services.commands.clock.now());
  const account = session && (await services.accounts.get(session.userId));
  if (!account) return null;
  return {
    userId: account.userId,
    email: account.email,
    displayName: account.displayName,
    superAdmin: account.superAdmin,
    memberships: account.memberships,
    sessionId,
    csrfToken: csrfTokenOf(token),
  };
}

export function requireUser(request: FastifyRequest): DashboardUser {
  if (!request.dashboardUser) throw fail('login_required', 'log in to use the dashboard');
  return request.dashboardUser;
}

/** Equal-length strings compared without an early exit. */
export function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * CSRF defence for every state-changing request: the token derived from the session (header or form
 * field) must match, and a browser-sent Origin must be this host. SameSite cookies are the second line.
 */
export function checkCsrf(request: FastifyRequest, expected: string, sent: string | undefined): void {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let host: string | null;
    try {
      host = new URL(origin).host;
    } catch {
      host = null;
    }
    if (host !== request.headers.host) throw fail('csrf_failed', 'the request came from another site');
  }
  if (sent === undefined || !sameToken(sent, expected)) throw fail('csrf_failed', 'the form has expired: reload the page and try again');
}

export function isSecureRequest(request: FastifyRequest, setting: 'auto' | 'always' | 'never'): boolean {
  if (setting !== 'auto') return setting === 'always';
  return request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
}

export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, services: AppServices, token: string | null): void {
  const { settings } = services.dashboard;
  reply.header(
    'set-cookie',
    serializeCookie(SESSION_COOKIE, token ?? '', {
      path: '/',
      maxAge: token ? Math.floor(settings.sessionTtlMs / 1000) : 0,
      sameSite: 'Lax',
      secure: isSecureRequest(request, settings.cookieSecure),
    }),
  );
}
