import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deposit } from '../../commands/billing.commands.js';
import { ETH_USD_ON_SAMPLE_DAY, PARTIES } from '../support/full-check-data.js';
import { pollUntil } from '../support/polling.js';
import type { TestService } from '../support/test-service.js';
import { startFullCheckService } from '../support/full-check-service.js';
import { bodyOf } from '../support/openapi/typed-response.js';

/**
 * The full check as a new user meets it: submit (202, never charged, never waiting), poll with backoff
 * (202 until done, no charge), the verdict once (200, charged 1.00 USD), the same body again (no further
 * charge), and nobody else's key can see it (404). Bodies are typed by the served OpenAPI document
 * (test/support/openapi/v2.d.ts): a field the document does not declare fails the typecheck.
 */

let service: TestService;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

beforeAll(async () => {
  service = await startFullCheckService();
});
afterAll(async () => {
  await service?.close();
});

const submit = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  service.app.inject({ method: 'POST', url: '/v2/check-address', headers: { ...auth(key), ...headers }, payload: body as object });
const poll = (key: string, url: string) => service.app.inject({ method: 'GET', url, headers: auth(key) });
const RESULT = '/v2/check-address/{check_id}/result';
const submitted202 = async (key: string, body: unknown) => bodyOf(await submit(key, body), 'post', '/v2/check-address', 202);
const balanceOf = async (key: string) =>
  (await service.app.inject({ method: 'GET', url: '/v2/balance', headers: auth(key) })).json().balance_usd as number;

async function resultOf(key: string, url: string) {
  return pollUntil(async () => {
    const response = await poll(key, url);
    if (response.statusCode === 202) {
      expect(bodyOf(response, 'get', RESULT, 202)).toMatchObject({ status: 'running' });
      return null;
    }
    return response;
  });
}

describe('POST /v2/check-address and its result', () => {
  it('answers 202 at once, charges nothing until the first 200, then 1.00 USD once; the same body again for free', async () => {
    const user = await service.account({ depositUsd: 5 });
    const submitted = await submit(user.apiKey, { address: PARTIES.d.toUpperCase().replace('0X', '0x'), network: 'eth' });
    expect(submitted.statusCode).toBe(202);
    const { check_id, result_url } = bodyOf(submitted, 'post', '/v2/check-address', 202);
    expect(Object.keys(submitted.json() as object).sort()).toEqual(['check_id', 'result_url']);
    expect(result_url).toBe(`/v2/check-address/${check_id}/result`);
    expect(await balanceOf(user.apiKey)).toBe(5);

    const first = await resultOf(user.apiKey, result_url);
    expect(first.statusCode).toBe(200);
    const body = bodyOf(first, 'get', RESULT, 200);
    expect(body).toMatchObject({
      check_id,
      status: 'completed',
      address: PARTIES.d,
      network: 'ETH',
      decision: 'review',
      verdict: {
        ok: true,
        risk_level: 'medium',
        tier3_applied: true,
        tier4_applied: false,
        tier4_reason: 'too_few_transfers',
        tier_hit: 3,
      },
      billing: { model: 'ledger', charged_usd: 1, balance_usd: 4, replay: false },
    });
    const stolen = body.evidence.find((e) => e.slug === 'stolen_funds');
    expect(stolen).toMatchObject({
      relation: 'indirect',
      direction: 'incoming',
      hops: 3,
      share_pct: 30,
      usd: 0.3 * 10 * ETH_USD_ON_SAMPLE_DAY,
    });
    expect(stolen?.paths[0]).toMatchObject({
      hops: 3,
      addresses: [PARTIES.r, PARTIES.a, PARTIES.b, PARTIES.d],
      usd: 10_500,
      label: 'example bridge exploiter',
      source: 'graphsense',
    });
    expect(body.exposure.source_of_funds.categories.find((c) => c.slug === 'exchange')).toMatchObject({
      share_pct: 50,
      usd: 17_500,
      min_hops: 2,
    });
    expect(body.tiers.map((t) => t.applied)).toEqual([true, true, true, true, false]);
    expect(await balanceOf(user.apiKey)).toBe(4);

    const again = await poll(user.apiKey, result_url);
    expect(again.statusCode).toBe(200);
    const { billing: firstBilling, ...firstRest } = body;
    const { billing: againBilling, ...againRest } = bodyOf(again, 'get', RESULT, 200);
    expect(againRest).toEqual(firstRest);
    expect(againBilling).toEqual({ ...firstBilling, replay: true });
    expect(await balanceOf(user.apiKey)).toBe(4);
    // The balance is read from the ledger stream, usage rows from a read model that may lag it (MongoDB).
    await service.services.whenCaughtUp();
    const usage = (await service.app.inject({ method: 'GET', url: '/v2/me/usage', headers: auth(user.apiKey) })).json();
    expect(usage.rows.filter((r: { call_id: string }) => r.call_id === check_id)).toHaveLength(1);
  });

  it("answers 404 to another user's key and for an unknown check, never 403", async () => {
    const owner = await service.account({ depositUsd: 5 });
    const stranger = await service.account({ depositUsd: 5 });
    const { result_url } = await submitted202(owner.apiKey, { address: PARTIES.t, network: 'ETH' });
    expect((await poll(stranger.apiKey, result_url)).statusCode).toBe(404);
    expect((await poll(owner.apiKey, '/v2/check-address/00000000-0000-7000-8000-000000000000/result')).statusCode).toBe(404);
    expect((await poll(owner.apiKey, `/v2/check-address/${'x'.repeat(90)}/result`)).statusCode).toBe(404);
    await resultOf(owner.apiKey, result_url);
    expect((await poll(stranger.apiKey, result_url)).statusCode).toBe(404);
    expect(await balanceOf(stranger.apiKey)).toBe(5);
  });

  it('refuses an unknown network with 400 before any job exists, and a key that cannot pay with 402', async () => {
    const user = await service.account({ depositUsd: 0.5 });
    await service.services.whenCaughtUp();
    const runningBefore = service.services.fullCheck.runningJobs.running().length;
    const unknown = await submit(user.apiKey, { address: PARTIES.d, network: 'DOGECHAIN' });
    expect(unknown.statusCode).toBe(400);
    expect(bodyOf(unknown, 'post', '/v2/check-address', 400).error.code).toBe('bad_request');
    expect(bodyOf(await submit(user.apiKey, { address: PARTIES.d, network: 'POLYGON' }), 'post', '/v2/check-address', 400)).toMatchObject({
      error: { code: 'unsupported_network' },
      supported_networks: ['BSC', 'ETH', 'TRON'],
    });
    expect((await submit(user.apiKey, { address: 'not-an-address', network: 'ETH' })).statusCode).toBe(422);
    const poor = await submit(user.apiKey, { address: PARTIES.d, network: 'ETH' });
    expect(poor.statusCode).toBe(402);
    expect(bodyOf(poor, 'post', '/v2/check-address', 402)).toMatchObject({
      error: { code: 'insufficient_funds' },
      billing: { charged_usd: 0, balance_usd: 0.5, shortfall_usd: 0.5 },
    });
    await service.services.whenCaughtUp();
    expect(service.services.fullCheck.runningJobs.running().length).toBe(runningBefore);
    const noPlan = await service.account({ plan: { kind: 'none' } });
    expect((await submit(noPlan.apiKey, { address: PARTIES.d, network: 'ETH' })).statusCode).toBe(402);
  });

  it('keeps its promise with an Idempotency-Key: the same check for the same body, 409 for another', async () => {
    const user = await service.account({ depositUsd: 5 });
    const first = await submit(user.apiKey, { address: PARTIES.d, network: 'ETH' }, { 'idempotency-key': 'order-1' });
    const replay = await submit(user.apiKey, { address: PARTIES.d, network: 'eth' }, { 'idempotency-key': 'order-1' });
    expect(replay.statusCode).toBe(202);
    expect(bodyOf(replay, 'post', '/v2/check-address', 202).check_id).toBe(bodyOf(first, 'post', '/v2/check-address', 202).check_id);
    expect((await submit(user.apiKey, { address: PARTIES.a, network: 'ETH' }, { 'idempotency-key': 'order-1' })).statusCode).toBe(409);
  });

  it('keeps a finished result waiting with 402 when the key can no longer pay, and delivers it after a deposit', async () => {
    const user = await service.account({ depositUsd: 1.5 });
    const first = await submitted202(user.apiKey, { address: PARTIES.b, network: 'ETH' });
    const second = await submitted202(user.apiKey, { address: PARTIES.e, network: 'ETH' });
    expect((await resultOf(user.apiKey, first.result_url)).statusCode).toBe(200);
    const refused = await resultOf(user.apiKey, second.result_url);
    expect(refused.statusCode).toBe(402);
    expect(bodyOf(refused, 'get', RESULT, 402)).toMatchObject({
      error: { code: 'insufficient_funds' },
      billing: { charged_usd: 0, balance_usd: 0.5 },
    });
    await deposit(service.services.commands, { userId: user.userId, amountMicros: 1_000_000 });
    const delivered = await poll(user.apiKey, second.result_url);
    expect(delivered.statusCode).toBe(200);
    expect(bodyOf(delivered, 'get', RESULT, 200).billing).toMatchObject({ charged_usd: 1, balance_usd: 0.5 });
  });

  it('charges a quota plan one unit on the first 200 only', async () => {
    const user = await service.account({ plan: { kind: 'quota', monthlyUnits: 3 } });
    const { result_url } = await submitted202(user.apiKey, { address: PARTIES.b, network: 'ETH' });
    const first = await resultOf(user.apiKey, result_url);
    expect(bodyOf(first, 'get', RESULT, 200).billing).toMatchObject({ model: 'quota', charged_units: 1, units_used: 1 });
    expect(bodyOf(await poll(user.apiKey, result_url), 'get', RESULT, 200).billing).toMatchObject({ units_used: 1, replay: true });
  });

  it('rejects a sanctioned address (tier 0) and raises service.check.high_risk for its owner', async () => {
    const user = await service.account({ depositUsd: 5 });
    const { check_id, result_url } = await submitted202(user.apiKey, { address: PARTIES.s, network: 'ETH' });
    const body = bodyOf(await resultOf(user.apiKey, result_url), 'get', RESULT, 200);
    expect(body).toMatchObject({
      decision: 'reject',
      verdict: {
        risk_level: 'sanctioned',
        risk_score: 100,
        tier_hit: 0,
        tier3_applied: false,
        tier3_reason: 'too_few_transfers',
        tier4_applied: true,
      },
    });
    const raised = [];
    for await (const event of service.services.store.read(`check-${check_id}`))
      if (event.type === 'WebhookEventRaised') raised.push(event.data);
    expect(raised).toEqual([
      {
        event_type: 'service.check.high_risk',
        audience: { user_id: user.userId },
        payload: {
          check_id,
          address: PARTIES.s,
          network: 'ETH',
          risk_level: 'severe',
          risk_score: 100,
          tier_hit: 0,
          categories: ['sanctions'],
          // the lists the verdict was checked against travel with the webhook
          sanctions: body.coverage.sanctions,
        },
        occurred_at: expect.any(String),
      },
    ]);
  });

  it('says "unable" for an address nobody knows, with tiers 3 and 4 not applied and why', async () => {
    const user = await service.account({ depositUsd: 5 });
    const { result_url } = await submitted202(user.apiKey, { address: PARTIES.lonely, network: 'BSC' });
    const body = bodyOf(await resultOf(user.apiKey, result_url), 'get', RESULT, 200);
    expect(body).toMatchObject({
      decision: 'unable',
      verdict: { risk_level: 'none', risk_score: null, tier3_applied: false, tier3_reason: 'no_transaction_history', tier4_applied: false },
      coverage: { data_available: false, transfer_history: false, graph_analysed: false },
    });
  });
});
