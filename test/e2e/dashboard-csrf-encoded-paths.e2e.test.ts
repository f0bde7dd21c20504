import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDecider } from '../../domain/accounts/account.decider.js';
import { accountStream } from '../../domain/accounts/account.events.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { policyAlert, recordCompletedTransferCheck } from '../support/alert-fixtures.js';
import { givePassword, logIn, type DashboardSession } from '../support/dashboard-login.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

/**
 * Every state-changing route of the dashboard, reached through percent-encoded spellings of its path
 * (`/%61pi/keys`, `/ap%69/keys`, every character encoded in either hex case, a mixed-case path, double
 * encoding) with the victim's session cookie, no CSRF token and a foreign Origin: 403 where the spelling
 * names the route, 404 where it names nothing, and nothing appended to the event log either way.
 */
const PASSWORD = 'csrf encoded paths password';
const EVIL = 'https://evil.example';
let svc: TestService;
let receiver: Receiver;
let victim: DashboardSession;
const ids = { keyId: '', webhookId: '', alertId: '' };

/** The body a forged request would send to each route (what would change something if it were accepted). */
const FORGED: Record<string, { form?: Record<string, string>; json?: Record<string, unknown> }> = {
  'POST /login': { form: { email: 'attacker@example.test', password: 'attacker password', csrf: 'f'.repeat(64) } },
  'POST /logout': { form: {} },
  'POST /screen': { form: { address: madeUpEvmAddress('csrf:screen'), network: 'ETH', kind: 'screen' } },
  'POST /api/keys': { json: {} },
  'DELETE /api/keys/:keyId': { json: {} },
  'POST /api/webhooks': { json: { url: 'http://127.0.0.1:9/forged', event_types: ['tx.policy.alert.triggered'] } },
  'POST /api/webhooks/test': { json: {} },
  'PATCH /api/webhooks/:id': { json: { description: 'forged' } },
  'DELETE /api/webhooks/:id': { json: {} },
  'POST /api/webhooks/:id/rotate-secret': { json: {} },
  'PATCH /api/alerts/:id': { json: { status: 'closed', resolution: 'false_positive' } },
  'POST /api/alerts/:id/comments': { json: { text: 'forged comment' } },
  'POST /checks/transfer': { form: { chain: 'ETH', tx_hash: `0x${'ab'.repeat(32)}` } },
  'POST /inspect': { form: { address: madeUpEvmAddress('csrf:inspect'), network: 'ETH' } },
  'POST /monitors': { form: { address: madeUpEvmAddress('csrf:monitor'), network: 'ETH', reference: 'forged' } },
  'DELETE /api/monitors/:id': { json: {} },
  'POST /policies': { form: { name: 'forged', reason: 'forged', based_on: 'standard' } },
  'POST /policies/:id/edit': { form: { name: 'forged', reason: 'forged', row_count: '0' } },
  'POST /policies/:id/activate': { form: { reason: 'forged' } },
  'POST /policies/:id/backtest': { form: { from: '2026-01-01', to: '2026-02-01' } },
};

/** `METHOD /path` of every route the app serves, read from Fastify's own route tree. */
function routesOf(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const paths: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^(.*?)[├└]── (.*) \(([^)]*)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    paths[depth] = `${depth === 0 ? '' : paths[depth - 1]!}${match[2]!}`.replace(/^\/?/, '/').replace(/\/\//g, '/');
    paths.length = depth + 1;
    for (const method of match[3]!.split(', ')) routes.push(`${method} ${paths[depth]!}`);
  }
  return routes;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const isDashboardChange = (route: string) => {
  const [method, path] = route.split(' ') as [string, string];
  return !SAFE.has(method) && !/^\/(v1|v2)\//.test(path);
};

const encode = (char: string, upper: boolean) => {
  const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? hex.toUpperCase() : hex}`;
};

/** Spellings of `path` (its first segment's literal letters rewritten); each names the route once decoded, or nothing. */
function spellings(path: string): string[] {
  const [, first = '', rest = ''] = /^\/([^/]+)(.*)$/.exec(path) ?? [];
  const all = (upper: boolean) => `/${[...first].map((c) => encode(c, upper)).join('')}${rest}`;
  return [
    `/${encode(first[0]!, false)}${first.slice(1)}${rest}`, // /%61pi/keys
    `/${first.slice(0, 2)}${encode(first[2]!, false)}${first.slice(3)}${rest}`, // /ap%69/keys
    all(false),
    all(true),
    `/${[...first].map((c, i) => (i % 2 === 0 ? encode(c, true) : c)).join('')}${rest}`,
    `/${first[0]!.toUpperCase()}${first.slice(1)}${rest}`, // /Api/keys: another path
    `/%25${first.charCodeAt(0).toString(16)}${first.slice(1)}${rest}`, // /%2561pi/keys: double encoding
  ];
}

/** A monitor nobody owns: a forged DELETE must be refused for its missing token (403) before the id is looked up. */
const SOME_MONITOR = '0193d000-0000-7000-8000-00000000abcd';

function concrete(path: string): string {
  const id = path.startsWith('/api/alerts') ? ids.alertId : path.startsWith('/api/monitors') ? SOME_MONITOR : ids.webhookId;
  return path.replace(':keyId', ids.keyId).replace(':id', id);
}

async function forge(method: string, url: string, forged: (typeof FORGED)[string], headers: Record<string, string>) {
  const body = forged.form
    ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(forged.form).toString() }
    : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(forged.json ?? {}) };
  return svc.app.inject({
    method: method as 'POST',
    url,
    headers: { cookie: victim.cookie, ...headers, ...body.headers },
    payload: body.payload,
  });
}

beforeAll(async () => {
  svc = await startTestService({ SVC_PASSWORD_SCRYPT_LOG_N: '10', WEBHOOK_ALLOW_LOCAL: '1' });
  receiver = await startReceiver();
  const owner = await svc.account({ depositUsd: 5 });
  ids.keyId = owner.keyId;
  await givePassword(svc.services, owner.userId, PASSWORD);
  const email = (await svc.services.app.accounts.get(owner.userId))!.email;
  victim = await logIn(svc.app, email, PASSWORD);
  const { state } = await svc.services.commands.executor.load(accountStream(owner.userId), accountDecider);
  const subgroupId = state.memberships[0]!.subgroupId;
  FORGED['POST /api/webhooks']!.json!.subgroup_id = subgroupId;
  const created = await svc.app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers: { cookie: victim.cookie, 'x-csrf-token': victim.csrf },
    payload: { url: receiver.url, event_types: ['tx.policy.alert.triggered'], subgroup_id: subgroupId },
  });
  expect(created.statusCode, created.body).toBe(201);
  ids.webhookId = created.json().id;
  FORGED['POST /api/webhooks/test']!.json!.subscription_id = ids.webhookId;
  await recordCompletedTransferCheck(svc.services, {
    checkId: '0193d000-0000-7000-8000-000000000001',
    requester: { channel: 'v2', userId: owner.userId, keyId: owner.keyId, subgroupId },
    alerts: [policyAlert('High', 'Mixer', madeUpEvmAddress('csrf:mixer'))],
  });
  await svc.services.whenCaughtUp();
  ids.alertId = (await svc.services.app.alerts.cases.page([subgroupId], {}, { page: 1, pageSize: 1 })).rows[0]!.alertId;
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await svc?.close();
});

describe('CSRF on percent-encoded dashboard paths', () => {
  it('the table below covers every state-changing dashboard route the app serves', () => {
    expect(routesOf(svc.app).filter(isDashboardChange).sort()).toEqual(Object.keys(FORGED).sort());
  });

  it('every spelling, without a token and from another origin (or none): 403 when it names the route, else 404; nothing changes', async () => {
    await svc.services.whenCaughtUp();
    const [before, delivered] = [await svc.services.store.headPosition(), receiver.received.length];
    for (const route of routesOf(svc.app).filter(isDashboardChange)) {
      const [method, pattern] = route.split(' ') as [string, string];
      const path = concrete(pattern);
      for (const url of [path, ...spellings(path)]) {
        const names = decodeURIComponent(url) === path;
        for (const headers of [{ origin: EVIL }, {}] as Record<string, string>[]) {
          const response = await forge(method, url, FORGED[route]!, headers);
          expect(response.statusCode, `${method} ${url} ${JSON.stringify(headers)}: ${response.body.slice(0, 200)}`).toBe(
            names ? 403 : 404,
          );
        }
      }
    }
    await svc.services.whenCaughtUp();
    expect(await svc.services.store.headPosition()).toEqual(before);
    expect(receiver.received).toHaveLength(delivered); // no forged test event
    // the session the forged logout aimed at is still live
    expect((await svc.app.inject({ method: 'GET', url: '/account/api', headers: { cookie: victim.cookie } })).statusCode).toBe(200);
  });

  it('an encoded spelling is the same route: with the token it acts', async () => {
    const created = await svc.app.inject({
      method: 'POST',
      url: '/%61pi/keys',
      headers: { cookie: victim.cookie, 'x-csrf-token': victim.csrf },
      payload: {},
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().api_key).toMatch(/^svc_/);
  });
});
