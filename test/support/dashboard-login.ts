import type { FastifyInstance } from 'fastify';
import { setPassword } from '../../commands/passwords.commands.js';
import type { Services } from '../../infra/bootstrap.js';

/** Gives an account a dashboard password (through the real command and hasher) and waits until it counts. */
export async function givePassword(services: Services, userId: string, password: string): Promise<void> {
  await services.app.whenProjected(await setPassword(services.commands, services.app.dashboard.passwords, userId, password));
}

export interface DashboardSession {
  /** The Cookie header of the logged-in session. */
  readonly cookie: string;
  readonly csrf: string;
}

const cookieOf = (setCookie: string | string[] | undefined, name: string): string | null => {
  for (const line of [setCookie ?? []].flat()) {
    const match = new RegExp(`^${name}=([^;]*)`).exec(line);
    if (match) return match[1]!;
  }
  return null;
};

/** The login form's double-submit token and its cookie, as a browser would get them. */
export async function loginForm(app: FastifyInstance): Promise<{ csrf: string; cookie: string }> {
  const page = await app.inject({ method: 'GET', url: '/login' });
  const csrf = /name="csrf" value="([0-9a-f]+)"/.exec(page.body)?.[1];
  const token = cookieOf(page.headers['set-cookie'], 'svc_login_csrf');
  if (!csrf || !token) throw new Error('the login page has no CSRF token');
  return { csrf, cookie: `svc_login_csrf=${token}` };
}

/** POST /login as a browser would; `remoteAddress`: the client's address (the login throttle counts by it). */
export async function postLogin(
  app: FastifyInstance,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  remoteAddress?: string,
) {
  const form = await loginForm(app);
  return app.inject({
    method: 'POST',
    url: '/login',
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: form.cookie, ...headers },
    payload: new URLSearchParams({ csrf: form.csrf, ...fields }).toString(),
  });
}

/** Logs in through the form and reads the CSRF token from the first page. */
export async function logIn(app: FastifyInstance, email: string, password: string): Promise<DashboardSession> {
  const response = await postLogin(app, { email, password });
  const token = cookieOf(response.headers['set-cookie'], 'svc_session');
  if (response.statusCode !== 303 || !token) throw new Error(`login failed: ${response.statusCode} ${response.body.slice(0, 300)}`);
  const cookie = `svc_session=${token}`;
  const page = await app.inject({ method: 'GET', url: '/account/api', headers: { cookie } });
  const csrf = /<meta name="csrf-token" content="([0-9a-f]+)">/.exec(page.body)?.[1];
  if (!csrf) throw new Error('the page has no CSRF token');
  return { cookie, csrf };
}
