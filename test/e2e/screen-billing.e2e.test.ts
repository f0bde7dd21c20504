import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf } from '../support/openapi/typed-response.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** Screen bodies are typed by the served OpenAPI document (test/support/openapi/v2.d.ts). */
type Reply = Parameters<typeof bodyOf>[0];
const screened = (response: Reply) => bodyOf(response, 'post', '/v2/screen', 200);
const refusedWith = <S extends 402 | 409>(response: Reply, status: S) => bodyOf(response, 'post', '/v2/screen', status);

const address = (i: number) => '0x' + i.toString(16).padStart(40, '0');

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

function client(key: string) {
  const headers = { authorization: `Bearer ${key}` };
  return {
    screen: (body: object, extra: Record<string, string> = {}) =>
      svc.app.inject({ method: 'POST', url: '/v2/screen', headers: { ...headers, ...extra }, payload: body }),
    balance: async () => (await svc.app.inject({ method: 'GET', url: '/v2/balance', headers })).json(),
    usage: async (query = '') => {
      await svc.services.whenCaughtUp();
      return (await svc.app.inject({ method: 'GET', url: `/v2/me/usage${query}`, headers })).json();
    },
  };
}

describe('billing of POST /v2/screen', () => {
  it('every envelope adds up with GET /v2/balance and GET /v2/me/usage', async () => {
    const { apiKey } = await svc.account({ depositUsd: 2 });
    const api = client(apiKey);
    const envelopes = [];
    for (let i = 1; i <= 5; i++) {
      const response = await api.screen({ address: address(i), network: 'eth' });
      expect(response.statusCode).toBe(200);
      const body = screened(response);
      expect(body.network).toBe('ETH');
      expect(body.coverage.data_available).toBe(false);
      const { billing } = body;
      if (billing.model !== 'ledger') throw new Error(`a ledger account's envelope, not ${billing.model}`);
      envelopes.push(billing);
    }
    expect(envelopes.map((b) => b.balance_usd)).toEqual([1.9, 1.8, 1.7, 1.6, 1.5]);
    expect(envelopes.every((b) => b.model === 'ledger' && b.currency === 'USD' && b.charged_usd === 0.1 && b.replay === false)).toBe(true);
    expect(envelopes.at(-1)?.monthly_spent_usd).toBe(0.5);
    const balance = await api.balance();
    expect(balance.balance_usd).toBe(1.5);
    expect(balance.monthly_spent_usd).toBe(0.5);
    const usage = await api.usage();
    expect(usage.rows).toHaveLength(5);
    expect(usage.rows.reduce((sum: number, r: { charged_usd: number }) => sum + r.charged_usd, 0)).toBeCloseTo(0.5, 6);
    expect(usage.billing.monthly_quota).toBeNull();
    expect(usage.billing.period_start).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
  });

  it('a quota plan gets 15 units, then 402 quota_exceeded with nothing charged', async () => {
    const { apiKey } = await svc.account({ plan: { kind: 'quota', monthlyUnits: 15 } });
    const api = client(apiKey);
    for (let i = 0; i < 15; i++) expect((await api.screen({ address: address(i), network: 'ETH' })).statusCode).toBe(200);
    const refused = await api.screen({ address: address(99), network: 'ETH' });
    expect(refused.statusCode).toBe(402);
    expect(refusedWith(refused, 402).error.code).toBe('quota_exceeded');
    const usage = await api.usage();
    expect(usage.billing.monthly_quota).toBe(15);
    expect(usage.billing.units_used).toBe(15);
    expect(usage.pagination.total).toBe(15);
  });

  it('no paid plan: 402, monthly_quota null', async () => {
    const { apiKey } = await svc.account({ plan: { kind: 'none' } });
    const api = client(apiKey);
    const refused = await api.screen({ address: address(1), network: 'ETH' });
    expect(refused.statusCode).toBe(402);
    expect((await api.usage()).billing.monthly_quota).toBeNull();
  });

  it('insufficient funds: 402 with a billing envelope naming the shortfall', async () => {
    const { apiKey } = await svc.account({ depositUsd: 0.15 });
    const api = client(apiKey);
    expect((await api.screen({ address: address(1), network: 'ETH' })).statusCode).toBe(200);
    const refused = await api.screen({ address: address(2), network: 'ETH' });
    expect(refused.statusCode).toBe(402);
    const body = refusedWith(refused, 402);
    expect(body.error.code).toBe('insufficient_funds');
    expect(body.billing).toMatchObject({ model: 'ledger', balance_usd: 0.05, shortfall_usd: 0.05, charged_usd: 0 });
  });

  it('monthly cap: 402 monthly_cap_exceeded once the cap is reached', async () => {
    const { apiKey } = await svc.account({ depositUsd: 10, capUsd: 0.2 });
    const api = client(apiKey);
    expect((await api.screen({ address: address(1), network: 'ETH' })).statusCode).toBe(200);
    expect((await api.screen({ address: address(2), network: 'ETH' })).statusCode).toBe(200);
    const refused = await api.screen({ address: address(3), network: 'ETH' });
    expect(refused.statusCode).toBe(402);
    expect(refusedWith(refused, 402).error.code).toBe('monthly_cap_exceeded');
    expect((await api.balance()).balance_usd).toBe(9.8);
  });

  it('usage pages and filters by since and until', async () => {
    const { apiKey } = await svc.account({ depositUsd: 5 });
    const api = client(apiKey);
    for (let i = 0; i < 7; i++) await api.screen({ address: address(i), network: 'BSC' });
    const page2 = await api.usage('?page=2&page_size=3');
    expect(page2.rows).toHaveLength(3);
    expect(page2.pagination).toEqual({ page: 2, page_size: 3, total: 7, total_pages: 3 });
    expect((await api.usage('?since=2999-01-01')).rows).toHaveLength(0);
    expect((await api.usage('?until=2000-01-01')).rows).toHaveLength(0);
    expect((await api.usage('?since=2000-01-01&until=2999-01-01&page_size=10')).rows).toHaveLength(7);
    const all = (await api.usage('?page_size=10')).rows as { created_at: string }[];
    const cut = all[0]!.created_at;
    const before = await api.usage(`?until=${encodeURIComponent(cut)}&page_size=10`);
    expect(before.pagination.total).toBe(all.filter((row) => row.created_at < cut).length);
    const bad = await svc.app.inject({ method: 'GET', url: '/v2/me/usage?page_size=101', headers: { authorization: `Bearer ${apiKey}` } });
    expect(bad.statusCode).toBe(422);
    const badPage = await svc.app.inject({ method: 'GET', url: '/v2/me/usage?page=0', headers: { authorization: `Bearer ${apiKey}` } });
    expect(badPage.statusCode).toBe(422);
  });
});

describe('Idempotency-Key', () => {
  it('same key and body: the stored response with replay true and no second charge', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const api = client(apiKey);
    const first = await api.screen({ address: address(7), network: 'ETH' }, { 'idempotency-key': 'order-1' });
    const again = await api.screen({ address: address(7), network: 'ETH' }, { 'idempotency-key': 'order-1' });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(screened(first).billing.replay).toBe(false);
    expect(screened(again).billing.replay).toBe(true);
    expect(screened(again).verdict).toEqual(screened(first).verdict);
    expect((await api.balance()).balance_usd).toBe(0.9);
  });

  it('same key, another body within 24 h: 409 idempotency_conflict, nothing charged', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const api = client(apiKey);
    await api.screen({ address: address(1), network: 'ETH' }, { 'idempotency-key': 'k' });
    const conflict = await api.screen({ address: address(2), network: 'ETH' }, { 'idempotency-key': 'k' });
    expect(conflict.statusCode).toBe(409);
    expect(refusedWith(conflict, 409).error.code).toBe('idempotency_conflict');
    expect((await api.balance()).balance_usd).toBe(0.9);
  });

  it('two concurrent requests with one key execute once; the second receives the stored response', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const api = client(apiKey);
    const [a, b] = await Promise.all([
      api.screen({ address: address(3), network: 'ETH' }, { 'idempotency-key': 'twin' }),
      api.screen({ address: address(3), network: 'ETH' }, { 'idempotency-key': 'twin' }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([screened(a).billing.replay, screened(b).billing.replay].sort()).toEqual([false, true]);
    expect((await api.balance()).balance_usd).toBe(0.9);
    expect((await api.usage()).rows).toHaveLength(1);
  });

  it('a key is scoped to its user: another user with the same key is not a replay', async () => {
    const one = client((await svc.account({ depositUsd: 1 })).apiKey);
    const two = client((await svc.account({ depositUsd: 1 })).apiKey);
    await one.screen({ address: address(4), network: 'ETH' }, { 'idempotency-key': 'shared' });
    const other = await two.screen({ address: address(4), network: 'ETH' }, { 'idempotency-key': 'shared' });
    expect(screened(other).billing.replay).toBe(false);
    expect((await two.balance()).balance_usd).toBe(0.9);
  });
});
