import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../infra/cli/args.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { ensureDemoAccount, DEMO_EMAIL } from '../../infra/startup/demo-account.js';
import { ensureDemoPassword } from '../../infra/startup/demo-password.js';
import { buildApp } from '../../read-api/app.js';
import { givePassword, logIn, postLogin } from '../support/dashboard-login.js';
import { manualClock } from '../support/manual-clock.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PASSWORD = 'a long enough password';
// A cheap scrypt keeps the suite fast; three failures per email (twelve per client address) per window.
const ENV = { SVC_PASSWORD_SCRYPT_LOG_N: '10', SVC_LOGIN_MAX_FAILURES: '3', SVC_DEMO_PASSWORD: 'demo password 123' };

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService(ENV);
});
afterAll(() => svc.close());

async function userWithPassword() {
  const { userId, apiKey } = await svc.account();
  const email = (await svc.services.repositories.accounts.get(userId))!.email;
  await givePassword(svc.services, userId, PASSWORD);
  return { userId, email, apiKey };
}

describe('dashboard login', () => {
  it('logs in with email and password: an HttpOnly, SameSite session cookie and a redirect to the page asked for', async () => {
    const { email } = await userWithPassword();
    const response = await postLogin(svc.app, { email: email.toUpperCase(), password: PASSWORD, next: '/account/usage' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/account/usage');
    const cookie = [response.headers['set-cookie']].flat().find((c) => c!.startsWith('svc_session='))!;
    expect(cookie).toMatch(/^svc_session=[0-9a-f]{64}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/);
    const page = await svc.app.inject({ method: 'GET', url: '/account/usage', headers: { cookie: cookie.split(';')[0]! } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(email);
  });

  it('marks the cookie Secure behind an HTTPS proxy', async () => {
    const { email } = await userWithPassword();
    const response = await postLogin(svc.app, { email, password: PASSWORD }, { 'x-forwarded-proto': 'https' });
    expect([response.headers['set-cookie']].flat().find((c) => c!.startsWith('svc_session='))).toMatch(/; Secure$/);
  });

  it('never redirects off the site after login', async () => {
    const { email } = await userWithPassword();
    // A TAB is dropped by URL parsers (`/\t/evil.example/` is `//evil.example/`); CR/LF cannot go into a header.
    for (const next of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      '/\t/evil.example/',
      '/account\r\nSet-Cookie: x=1',
    ]) {
      const response = await postLogin(svc.app, { email, password: PASSWORD, next });
      expect(response.statusCode, JSON.stringify(next)).toBe(303);
      expect(response.headers.location, JSON.stringify(next)).toBe('/account/api');
      // The session this login started is the one whose cookie the client gets.
      expect([response.headers['set-cookie']].flat().some((c) => c?.startsWith('svc_session='))).toBe(true);
    }
  });

  it('answers a wrong password and an unknown email alike: 401 and the same message', async () => {
    const { email } = await userWithPassword();
    const wrong = await postLogin(svc.app, { email, password: 'not the password' });
    const unknown = await postLogin(svc.app, { email: 'nobody@example.test', password: PASSWORD });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('Wrong email address or password.');
      expect([response.headers['set-cookie']].flat().some((c) => c?.startsWith('svc_session='))).toBe(false);
    }
    expect(wrong.body).toContain(`value="${email}"`);
  });

  it('refuses a login without the form’s CSRF token (403) and an empty form (422)', async () => {
    const { email } = await userWithPassword();
    const forged = await svc.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email, password: PASSWORD, csrf: 'f'.repeat(64) }).toString(),
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('The login form expired');
    expect((await postLogin(svc.app, { email: '', password: '' })).statusCode).toBe(422);
  });

  it('throttles guessing from an address with growing waits, and never locks the owner out from elsewhere', async () => {
    // the throttle's time is the app's clock: moved by hand here, so no wait depends on the machine's speed
    const clock = manualClock(new Date().toISOString());
    const app = await buildApp({ ...svc.services.app, commands: { ...svc.services.app.commands, clock } });
    try {
      const { email } = await userWithPassword();
      const from = (remoteAddress: string, password: string, as = email) => postLogin(app, { email: as, password }, {}, remoteAddress);
      for (let i = 0; i < 3; i++) expect((await from('203.0.113.66', `wrong ${i}`)).statusCode).toBe(401);
      // the guessing address waits (even with the right password), and is told how long; each miss doubles it
      for (const seconds of [1, 2, 4, 8]) {
        const limited = await from('203.0.113.66', PASSWORD);
        expect(limited.statusCode).toBe(429);
        expect(limited.headers['retry-after']).toBe(String(seconds));
        expect(limited.body).toContain(`Too many failed attempts from here. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`);
        await clock.advance(seconds * 1000);
        expect((await from('203.0.113.66', 'another guess')).statusCode).toBe(401);
      }
      // the owner, from another address, logs in at once
      expect((await from('198.51.100.7', PASSWORD)).statusCode).toBe(303);
      // an address that sprays many accounts waits too, past four times the allowance
      for (let i = 0; i < 12; i++) expect((await from('192.0.2.9', 'guess', `nobody${i}@example.test`)).statusCode).toBe(401);
      expect((await from('192.0.2.9', PASSWORD)).statusCode).toBe(429);
      expect((await from('192.0.2.10', PASSWORD)).statusCode).toBe(303);
    } finally {
      await app.close();
    }
  });

  it('behind a listed proxy the throttle counts the client X-Forwarded-For names, not the proxy', async () => {
    const clock = manualClock(new Date().toISOString()); // still: the 429 below must not depend on the machine's speed
    const app = await buildApp(
      { ...svc.services.app, commands: { ...svc.services.app.commands, clock } },
      { trustedProxies: ['127.0.0.1'] },
    );
    try {
      const { email } = await userWithPassword();
      const via = (client: string, password: string) => postLogin(app, { email, password }, { 'x-forwarded-for': client }, '127.0.0.1');
      for (let i = 0; i < 3; i++) expect((await via('203.0.113.70', `wrong ${i}`)).statusCode).toBe(401);
      expect((await via('203.0.113.70', PASSWORD)).statusCode).toBe(429);
      expect((await via('198.51.100.70', PASSWORD)).statusCode).toBe(303);
    } finally {
      await app.close();
    }
  });

  it('logs out: the cookie is cleared and the old session no longer opens a page', async () => {
    const { email } = await userWithPassword();
    const session = await logIn(svc.app, email, PASSWORD);
    const refused = await svc.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'csrf=nope',
    });
    expect(refused.statusCode).toBe(403);
    const out = await svc.app.inject({
      method: 'POST',
      url: '/logout',
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `csrf=${session.csrf}`,
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/login');
    expect([out.headers['set-cookie']].flat()).toContain('svc_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
    const after = await svc.app.inject({ method: 'GET', url: '/account/api', headers: { cookie: session.cookie } });
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/login?next=%2Faccount%2Fapi');
  });

  it('sends pages without a session to the login form, and /api calls get 401 login_required', async () => {
    for (const url of ['/account/api', '/account/usage', '/webhooks']) {
      const page = await svc.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(303);
      expect(page.headers.location).toBe(`/login?next=${encodeURIComponent(url)}`);
    }
    const api = await svc.app.inject({ method: 'POST', url: '/api/keys', payload: {} });
    expect(api.statusCode).toBe(401);
    expect(api.json().error.code).toBe('login_required');
    const forged = await svc.app.inject({ method: 'GET', url: '/account/api', headers: { cookie: `svc_session=${'a'.repeat(64)}` } });
    expect(forged.statusCode).toBe(303);
  });

  it('serves pages with a strict Content-Security-Policy and no caching', async () => {
    const page = await svc.app.inject({ method: 'GET', url: '/login' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).not.toMatch(/<script>|style="/);
  });
});

describe('demo login', () => {
  it('the demo account logs in as demo@localhost with SVC_DEMO_PASSWORD', async () => {
    await ensureDemoAccount(svc.services);
    expect((await ensureDemoPassword(svc.services)).generated).toBeNull();
    const session = await logIn(svc.app, DEMO_EMAIL, ENV.SVC_DEMO_PASSWORD);
    expect(session.csrf).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('demo password when SVC_DEMO_PASSWORD is unset', () => {
  it('is generated once, logs in, and is kept on later starts', async () => {
    const fresh = await startTestService({ SVC_PASSWORD_SCRYPT_LOG_N: '10' });
    try {
      await ensureDemoAccount(fresh.services);
      const { generated } = await ensureDemoPassword(fresh.services);
      expect(generated).toMatch(/^[a-zA-Z2-9]{20}$/);
      expect((await ensureDemoPassword(fresh.services)).generated).toBeNull();
      await logIn(fresh.app, DEMO_EMAIL, generated!);
    } finally {
      await fresh.close();
    }
  });
});

describe('operator verbs for dashboard access', () => {
  const verb = (argv: string[]) => runVerb(svc.services, parseArgs(argv));

  it('`account password` sets a password the user logs in with; too short is refused', async () => {
    const { userId } = await svc.account();
    const email = (await svc.services.repositories.accounts.get(userId))!.email;
    await expect(verb(['account', 'password', '--user', userId, '--password', 'short'])).rejects.toMatchObject({ code: 'bad_request' });
    const set = await verb(['account', 'password', '--user', userId, '--password', 'set by the operator']);
    expect(set.output).toEqual({ user_id: userId, email, password_set: true });
    await logIn(svc.app, email, 'set by the operator');
    await expect(verb(['account', 'password', '--user', 'nobody', '--password', 'whatever long'])).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('`account join` adds a user to an existing subgroup; `account superadmin` grants the platform role', async () => {
    const owner = await svc.account();
    const subgroupId = (await svc.services.repositories.accounts.get(owner.userId))!.memberships[0]!.subgroupId;
    const { userId } = await svc.account({ organization: false });
    const joined = await verb(['account', 'join', '--user', userId, '--subgroup', subgroupId]);
    expect(joined.output).toMatchObject({ user_id: userId, subgroup_id: subgroupId, role: 'member' });
    expect((await svc.services.repositories.accounts.get(userId))!.memberships).toMatchObject([{ subgroupId, role: 'member' }]);
    await verb(['account', 'superadmin', '--user', userId]);
    expect((await svc.services.repositories.accounts.get(userId))!.superAdmin).toBe(true);
    await expect(verb(['account', 'join', '--user', userId, '--subgroup', 'no-such-subgroup'])).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
