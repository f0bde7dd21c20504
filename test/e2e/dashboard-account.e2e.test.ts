import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givePassword, logIn, type DashboardSession } from '../support/dashboard-login.js';
import { startTestService, type TestService } from '../support/test-service.js';

const PASSWORD = 'a long enough password';
const address = (i: number) => '0x' + (0xdead0000 + i).toString(16).padStart(40, '0');

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ SVC_PASSWORD_SCRYPT_LOG_N: '10' });
});
afterAll(() => svc.close());

async function loggedIn(depositUsd = 5) {
  const account = await svc.account({ depositUsd });
  const email = (await svc.services.repositories.accounts.get(account.userId))!.email;
  await givePassword(svc.services, account.userId, PASSWORD);
  return { ...account, session: await logIn(svc.app, email, PASSWORD) };
}

const api = (session: DashboardSession, method: 'POST' | 'DELETE', url: string, extra: Record<string, string> = {}) =>
  svc.app.inject({ method, url, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, ...extra }, payload: {} });

const screen = (apiKey: string, i = 1) =>
  svc.app.inject({
    method: 'POST',
    url: '/v2/screen',
    headers: { authorization: `Bearer ${apiKey}` },
    payload: { address: address(i), network: 'ETH' },
  });

const page = (session: DashboardSession, url: string) => svc.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

describe('Account → API', () => {
  it('generates a key shown once, lists it by its 4-character prefix, and the key screens', async () => {
    const { session } = await loggedIn();
    const created = await api(session, 'POST', '/api/keys');
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.api_key).toMatch(/^svc_[0-9A-Za-z]{44}$/);
    expect(body.prefix).toBe(body.api_key.slice(4, 8));
    const list = await page(session, '/account/api');
    expect(list.body).toContain(`svc_${body.prefix}…`);
    expect(list.body).not.toContain(body.api_key);
    expect(list.body).toContain('2 active, 0 revoked');
    expect((await screen(body.api_key)).statusCode).toBe(200);
    await svc.services.whenCaughtUp();
    const row = /<tr data-key-prefix="(\w{4})">[\s\S]*?<\/tr>/.exec((await page(session, '/account/api')).body)![0];
    expect(row).toContain(body.prefix);
    expect(row).not.toContain('never');
  });

  it('revokes a key: the next call with it is 401 invalid_api_key, at once', async () => {
    const { session, apiKey, keyId } = await loggedIn();
    expect((await screen(apiKey)).statusCode).toBe(200);
    const revoked = await api(session, 'DELETE', `/api/keys/${keyId}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ key_id: keyId, revoked: true });
    const refused = await screen(apiKey, 2);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('invalid_api_key');
    expect((await page(session, '/account/api')).body).toContain('0 active, 1 revoked');
  });

  it('another user’s key is 404, and stays valid', async () => {
    const { session } = await loggedIn();
    const other = await svc.account({ depositUsd: 1 });
    const response = await api(session, 'DELETE', `/api/keys/${other.keyId}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
    expect((await api(session, 'DELETE', '/api/keys/no-such-key')).statusCode).toBe(404);
    expect((await screen(other.apiKey)).statusCode).toBe(200);
  });

  it('refuses actions without the CSRF token or from another origin (403 csrf_failed)', async () => {
    const { session, keyId, apiKey } = await loggedIn();
    const noToken = await svc.app.inject({ method: 'DELETE', url: `/api/keys/${keyId}`, headers: { cookie: session.cookie }, payload: {} });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().error.code).toBe('csrf_failed');
    const otherSite = await api(session, 'POST', '/api/keys', { origin: 'https://evil.example' });
    expect(otherSite.statusCode).toBe(403);
    const wrongToken = await api(session, 'POST', '/api/keys', { 'x-csrf-token': 'a'.repeat(64) });
    expect(wrongToken.statusCode).toBe(403);
    expect((await screen(apiKey)).statusCode).toBe(200);
  });
});

describe('Account → Usage', () => {
  it('shows the billing figures, the rows of /v2/me/usage and calls and spend per day', async () => {
    const { session, apiKey } = await loggedIn(2);
    for (let i = 1; i <= 3; i++) expect((await screen(apiKey, i)).statusCode).toBe(200);
    await svc.services.whenCaughtUp();
    const usage = await svc.app.inject({ method: 'GET', url: '/v2/me/usage', headers: { authorization: `Bearer ${apiKey}` } });
    const html = (await page(session, '/account/usage')).body;
    expect(html).toContain('$1.70');
    expect(html).toContain('$0.30');
    for (const row of usage.json().rows) expect(html).toContain(row.subject);
    expect(html).toMatch(/Calls per day<\/strong> <span class="hint">last 30 days, total 3</);
    expect(html).toMatch(/Spend per day \(USD, net of refunds\)<\/strong> <span class="hint">last 30 days, total \$0.30</);
    const today = new Date().toISOString().slice(0, 10);
    expect(html).toContain(`<title>${today}: 3</title>`);
    const future = (await page(session, '/account/usage?since=2999-01-01')).body;
    expect(future).toContain('No recorded calls since 2999-01-01.');
  });

  it('pages the rows, newest first', async () => {
    const { session, apiKey } = await loggedIn(10);
    for (let i = 0; i < 27; i++) expect((await screen(apiKey, 100 + i)).statusCode).toBe(200);
    await svc.services.whenCaughtUp();
    const first = (await page(session, '/account/usage')).body;
    expect(first).toContain('Page 1 of 2 (27 calls)');
    expect(first).toContain(address(126));
    const second = (await page(session, '/account/usage?page=2')).body;
    expect(second).toContain('Page 2 of 2 (27 calls)');
    expect(second).toContain(address(100));
    expect(second).not.toContain(address(126));
  });
});
