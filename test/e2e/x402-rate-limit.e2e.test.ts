import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessRateLimits } from '../../infra/embedded/in-process-rate-limits.js';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The limits need no chain: a proof that does not even decode still costs a paid-call token. These are the
 * embedded limiter's token buckets, in every run (the external suite's shared MongoDB counter is tested in
 * test/external/x402-rate-limit.external.test.ts); each app gets buckets of its own.
 */
let svc: TestService;
let now = Date.parse('2026-06-01T12:00:00.000Z');
const clock = { now: () => new Date(now) };
const apps: FastifyInstance[] = [];

async function x402App(trustedProxies: string[] = []) {
  const services = svc.services.x402.app!;
  const app = await buildX402App({
    ...services,
    trustedProxies,
    rateLimits: createInProcessRateLimits(),
    deps: { ...services.deps, clock },
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  svc = await startTestService({
    X402_PAY_TO: madeUpEvmAddress('rate-limit-payee'),
    X402_RPC_URL: 'http://127.0.0.1:9',
    X402_GAS_WALLET_KEY: `0x${'11'.repeat(32)}`,
  });
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await svc?.close();
});

const path = `/screen/ETH/${madeUpEvmAddress('rate-limited')}`;
const paid = (app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: path, remoteAddress, headers: { 'x-payment': 'bm90LWEtcHJvb2Y=', ...headers } });
const unpaid = (app: FastifyInstance, remoteAddress: string) => app.inject({ method: 'GET', url: path, remoteAddress });

async function spend(app: FastifyInstance, n: number, remoteAddress: string, headers: Record<string, string> = {}) {
  const statuses = [];
  for (let i = 0; i < n; i++) statuses.push((await paid(app, remoteAddress, headers)).statusCode);
  return statuses;
}

describe('x402 rate limit: 60 paid calls per minute per client', () => {
  it('the 61st paid call within a minute is 429 rate_limit_exceeded with Retry-After; a token is back a second later', async () => {
    const app = await x402App();
    expect(await spend(app, 60, '203.0.113.7')).toEqual(Array(60).fill(402));
    const refused = await paid(app, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({ error: { code: 'rate_limit_exceeded', message: expect.any(String) } });
    expect((await paid(app, '203.0.113.8')).statusCode).toBe(402);
    now += 1000;
    expect((await paid(app, '203.0.113.7')).statusCode).toBe(402);
    expect((await paid(app, '203.0.113.7')).statusCode).toBe(429);
    now += 60_000;
    expect(await spend(app, 60, '203.0.113.7')).toEqual(Array(60).fill(402));
  });

  it('quotes have their own bucket (120 per minute): exhausting it leaves paid calls alone, and the reverse', async () => {
    const app = await x402App();
    for (let i = 0; i < 120; i++) expect((await unpaid(app, '198.51.100.20')).statusCode).toBe(402);
    const refused = await unpaid(app, '198.51.100.20');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await paid(app, '198.51.100.20')).statusCode).toBe(402);
  });

  it('the free result endpoints are rate-limited too: 429 with Retry-After', async () => {
    const app = await x402App();
    const result = (remoteAddress: string) =>
      app.inject({ method: 'GET', url: '/check-address-result/00000000-0000-4000-8000-000000000000', remoteAddress });
    for (let i = 0; i < 120; i++) expect((await result('198.51.100.30')).statusCode).toBe(404);
    const refused = await result('198.51.100.30');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limit_exceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('IPv6 clients are grouped by /64, and an IPv4-mapped address is its IPv4 client', async () => {
    const app = await x402App();
    await spend(app, 60, '2001:db8:1:2::1');
    expect((await paid(app, '2001:db8:1:2:abcd::99')).statusCode).toBe(429);
    expect((await paid(app, '2001:db8:1:3::1')).statusCode).toBe(402);
    await spend(app, 60, '192.0.2.44');
    expect((await paid(app, '::ffff:192.0.2.44')).statusCode).toBe(429);
  });

  it('X-Forwarded-For counts only through a listed proxy: a forged one changes nothing', async () => {
    const direct = await x402App();
    await spend(direct, 60, '192.0.2.50', { 'x-forwarded-for': '198.51.100.1' });
    expect((await paid(direct, '192.0.2.50', { 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(429);

    const proxied = await x402App(['127.0.0.1']);
    await spend(proxied, 60, '127.0.0.1', { 'x-forwarded-for': '198.51.100.1' });
    expect((await paid(proxied, '127.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(429);
    expect((await paid(proxied, '127.0.0.1', { 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(402);
    // a client behind the proxy cannot pick a bucket by prepending addresses: the hop the proxy saw counts
    expect((await paid(proxied, '127.0.0.1', { 'x-forwarded-for': '10.9.9.9, 198.51.100.1' })).statusCode).toBe(429);
  });
});
