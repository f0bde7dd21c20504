import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { deposit } from '../../commands/billing.commands.js';
import { addCuratorEntry, retractCuratorEntry } from '../../commands/curate.js';
import { renewMonitor } from '../../commands/monitors.commands.js';
import { createMonitorRenewals } from '../../processors/monitor-renewal.js';
import { createSubscription } from '../../commands/webhook-subscriptions.commands.js';
import { parseArgs } from '../../infra/cli/args.js';
import { MONITOR_VERBS } from '../../infra/cli/monitor-verbs.js';
import { importOneSource } from '../../infra/sources/import-sources.js';
import { sdnList } from '../helpers/ofac-sdn-list.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

/**
 * Continuous monitoring end to end: a made-up address no source flags is monitored; a new version of the
 * OFAC SDN list (the official advanced XML layout) lists it; the customer's receiver gets
 * service.address.risk_changed none → sanctioned, and the next version without it changes it back.
 */
const ENV = { WEBHOOK_ALLOW_LOCAL: '1', WEBHOOK_RETRY_SCALE: '0.0001', WEBHOOK_TIMEOUT_MS: '1000' };
const WATCHED = '0x7e57000000000000000000000000000000e2e001';
const BYSTANDER = '0x7e57000000000000000000000000000000e2e002';
let svc: TestService;
let receiver: Receiver;
let dir: string;
beforeAll(async () => {
  svc = await startTestService(ENV);
  receiver = await startReceiver();
  dir = await mkdtemp(join(tmpdir(), 'svc-monitors-'));
  await importList('2026-03-01');
});
afterAll(async () => {
  await receiver?.close();
  await svc?.close();
  await rm(dir, { recursive: true, force: true });
});

async function importList(day: string, extraAddress?: string) {
  const file = join(dir, 'sdn_advanced.xml');
  await writeFile(file, sdnList(day, extraAddress));
  const [outcome] = await importOneSource(svc.services.commands, 'ofac_sdn', file);
  expect(outcome).toMatchObject({ status: 'imported', version: day });
  await svc.services.whenCaughtUp();
}

const call = (apiKey: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  svc.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${apiKey}`, ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('monitors', () => {
  it('re-screens a watched address when a new sanctions list version lists it, and back when the next one drops it', async () => {
    const customer = await svc.account({ depositUsd: 5 });
    const actor = await loadWebhookActor(svc.services.app.webhooks.commands, customer.userId, 'api_key');
    const subscribed = await createSubscription(svc.services.app.webhooks.commands, actor, {
      url: receiver.url,
      eventTypes: ['service.address.risk_changed'],
    });
    await svc.services.projections.whenProcessed(subscribed.position);

    const created = await call(customer.apiKey, 'POST', '/v2/monitors', { address: WATCHED, network: 'eth', reference: 'customer-42' });
    expect(created.statusCode).toBe(201);
    const monitor = created.json();
    expect(monitor).toMatchObject({
      address: WATCHED,
      network: 'ETH',
      reference: 'customer-42',
      status: 'active',
      verdict: { risk_level: 'none', sdn_match: null },
    });
    expect(monitor.billing).toMatchObject({ model: 'ledger', charged_usd: 0.1 });
    const bystander = (await call(customer.apiKey, 'POST', '/v2/monitors', { address: BYSTANDER, network: 'ETH' })).json();

    await importList('2026-03-02', WATCHED);
    const [listed] = await receiver.waitFor(1);
    expect(listed!.json.event_type).toBe('service.address.risk_changed');
    expect(listed!.headers['x-service-event']).toBe('service.address.risk_changed');
    expect(listed!.json.payload).toMatchObject({
      monitor_id: monitor.monitor_id,
      address: WATCHED,
      network: 'ETH',
      reference: 'customer-42',
      previous: { risk_level: 'none', sdn_match: null },
      current: {
        risk_level: 'sanctioned',
        risk_categories: ['sanctions'],
        sdn_match: { list: 'US', entity: 'EXAMPLE SANCTIONED GROUP', list_date: '2022-04-14' },
      },
      reasons: [{ source: 'ofac_sdn', change: 'dataset_imported', version: '2026-03-02' }],
    });

    const read = (await call(customer.apiKey, 'GET', `/v2/monitors/${monitor.monitor_id}`)).json();
    expect(read.verdict.risk_level).toBe('sanctioned');
    expect(read.history).toHaveLength(1);
    expect(read.history[0]).toMatchObject({
      previous: { risk_level: 'none' },
      current: { risk_level: 'sanctioned', sdn_match: { list_date: '2022-04-14' } },
      reasons: [{ version: '2026-03-02' }],
    });
    // The webhook and the API keep the reasons' words, in the order they were always sent.
    const WORDS = ['source', 'change', 'version', 'changed_at'];
    expect(Object.keys((listed!.json.payload.reasons as object[])[0]!)).toEqual(WORDS);
    expect(Object.keys(read.history[0].reasons[0])).toEqual(WORDS);
    expect((await call(customer.apiKey, 'GET', `/v2/monitors/${bystander.monitor_id}`)).json().history).toEqual([]);

    await importList('2026-03-03');
    const [, delisted] = await receiver.waitFor(2);
    expect(delisted!.json.payload).toMatchObject({
      previous: { risk_level: 'sanctioned' },
      current: { risk_level: 'none', sdn_match: null },
      reasons: [{ version: '2026-03-03' }],
    });
    expect(delisted!.json.delivery_id).not.toBe(listed!.json.delivery_id);
    expect((await call(customer.apiKey, 'GET', `/v2/monitors/${monitor.monitor_id}`)).json().history).toHaveLength(2);
    expect(receiver.received.filter((r) => r.json.payload?.monitor_id === bystander.monitor_id)).toEqual([]);
  });

  it('re-screens on a curated entry added and retracted, with the curator as the reason', async () => {
    const customer = await svc.account({ depositUsd: 1 });
    const address = '0x7e57000000000000000000000000000000e2e201';
    const monitor = (await call(customer.apiKey, 'POST', '/v2/monitors', { address, network: 'BSC' })).json();
    const entry = await addCuratorEntry(svc.services.commands, {
      address,
      network: 'BSC',
      kind: 'risk',
      category: 'scam',
      label: null,
      confidence: 95,
      evidenceUrl: 'https://example.org/evidence/e2e',
      curator: 'analyst-1',
    });
    await svc.services.whenCaughtUp();
    await retractCuratorEntry(svc.services.commands, { entryId: entry.entryId, reason: 'false positive', curator: 'analyst-1' });
    await svc.services.whenCaughtUp();
    const history = (await call(customer.apiKey, 'GET', `/v2/monitors/${monitor.monitor_id}`)).json().history;
    expect(history.map((h: { current: { risk_categories: string[] } }) => h.current.risk_categories)).toEqual([['scam'], []]);
    expect(history.map((h: { reasons: { source: string; change: string }[] }) => h.reasons[0])).toMatchObject([
      { source: 'curator', change: 'curator_entry_added' },
      { source: 'curator', change: 'curator_entry_retracted' },
    ]);
  });

  it("answers per the API rules: idempotent creation, another user's monitor is 404, paging, delete", async () => {
    const alice = await svc.account({ depositUsd: 5 });
    const bob = await svc.account({ depositUsd: 5 });
    const body = { address: '0x7e57000000000000000000000000000000e2e101', network: 'BSC' };
    const first = await call(alice.apiKey, 'POST', '/v2/monitors', body, { 'idempotency-key': 'watch-1' });
    const replay = await call(alice.apiKey, 'POST', '/v2/monitors', body, { 'idempotency-key': 'watch-1' });
    expect(first.statusCode).toBe(201);
    expect(replay.statusCode).toBe(201);
    expect(replay.json().billing.replay).toBe(true);
    expect(
      (await call(alice.apiKey, 'POST', '/v2/monitors', { ...body, network: 'ETH' }, { 'idempotency-key': 'watch-1' })).statusCode,
    ).toBe(409);
    // The same address again without a key is the same monitor, not charged again.
    const again = await call(alice.apiKey, 'POST', '/v2/monitors', body);
    expect(again.statusCode).toBe(200);
    expect(again.json().monitor_id).toBe(first.json().monitor_id);
    const usage = (await call(alice.apiKey, 'GET', '/v2/me/usage')).json();
    expect(
      usage.rows.filter((row: { product: string; refunded_usd: number }) => row.product === 'monitor' && row.refunded_usd === 0),
    ).toHaveLength(1);

    const id = first.json().monitor_id;
    expect((await call(bob.apiKey, 'GET', `/v2/monitors/${id}`)).statusCode).toBe(404);
    expect((await call(bob.apiKey, 'DELETE', `/v2/monitors/${id}`)).statusCode).toBe(404);
    expect((await call(bob.apiKey, 'GET', '/v2/monitors')).json().pagination.total).toBe(0);

    expect((await call(alice.apiKey, 'POST', '/v2/monitors', { address: 'not-an-address', network: 'ETH' })).statusCode).toBe(422);
    expect((await call(alice.apiKey, 'POST', '/v2/monitors', { address: body.address, network: 'BTC' })).statusCode).toBe(400);

    const bulk = await call(alice.apiKey, 'POST', '/v2/monitors/bulk', {
      monitors: [
        { address: '0x7e57000000000000000000000000000000e2e102', network: 'ETH', reference: 'r-2' },
        { address: 'nope', network: 'ETH' },
        body,
        { address: body.address, network: 'SOL' },
      ],
    });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.json().results.map((r: { status: number }) => r.status)).toEqual([201, 422, 200, 400]);
    expect(bulk.json().results[1].body.detail[0].loc).toEqual(['body', 'monitors', 1, 'address']);
    expect(bulk.json().summary).toEqual({ created: 1, existing: 1, failed: 2 });
    const tooMany = await call(alice.apiKey, 'POST', '/v2/monitors/bulk', { monitors: Array.from({ length: 1001 }, () => body) });
    expect(tooMany.statusCode).toBe(422);

    const page = (await call(alice.apiKey, 'GET', '/v2/monitors?page=1&page_size=1')).json();
    expect(page.pagination).toEqual({ page: 1, page_size: 1, total: 2, total_pages: 2 });
    expect(page.data).toHaveLength(1);

    expect((await call(alice.apiKey, 'DELETE', `/v2/monitors/${id}`)).statusCode).toBe(204);
    expect((await call(alice.apiKey, 'GET', `/v2/monitors/${id}`)).statusCode).toBe(404);
    expect((await call(alice.apiKey, 'GET', '/v2/monitors')).json().pagination.total).toBe(1);
  });

  it('refuses a creation that cannot be paid (402, nothing created); an unpaid month pauses the monitor, funds resume it', async () => {
    const broke = await svc.account({ depositUsd: 0 });
    const refused = await call(broke.apiKey, 'POST', '/v2/monitors', { address: WATCHED, network: 'ETH' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error.code).toBe('insufficient_funds');
    expect((await call(broke.apiKey, 'GET', '/v2/monitors')).json().pagination.total).toBe(0);

    const tight = await svc.account({ depositUsd: 0.15 });
    const monitor = (await call(tight.apiKey, 'POST', '/v2/monitors', { address: WATCHED, network: 'ETH' })).json();
    const nextMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 2));
    const later = { ...svc.services.commands, clock: { now: () => nextMonth } };
    // The renewal sweep of the next month, on that month's clock: this monitor's owner cannot pay it.
    const renewals = createMonitorRenewals({ commands: later, monitors: svc.services.monitors.api.repository, intervalMs: 60_000 });
    expect((await renewals.sweep()).paused).toBeGreaterThanOrEqual(1);
    await svc.services.whenCaughtUp();
    const paused = (await call(tight.apiKey, 'GET', `/v2/monitors/${monitor.monitor_id}`)).json();
    expect(paused).toMatchObject({ status: 'paused', paused_reason: 'insufficient_funds' });
    expect((await call(tight.apiKey, 'GET', '/v2/monitors')).json().data[0].status).toBe('paused');

    await deposit(svc.services.commands, { userId: tight.userId, amountMicros: 1_000_000 });
    const period = new Date(Date.UTC(nextMonth.getUTCFullYear(), nextMonth.getUTCMonth(), 1)).toISOString();
    expect((await renewals.sweep()).resumed).toBe(1);
    expect(await renewMonitor(later, { monitorId: monitor.monitor_id, period })).toBe('unchanged');
    await svc.services.whenCaughtUp();
    expect(await renewals.sweep()).toEqual({ renewed: 0, resumed: 0, paused: 0 });
    await svc.services.whenCaughtUp();
    expect((await call(tight.apiKey, 'GET', `/v2/monitors/${monitor.monitor_id}`)).json()).toMatchObject({
      status: 'active',
      paused_reason: null,
      paid_period_start: period,
    });
    const rows = (await call(tight.apiKey, 'GET', '/v2/me/usage'))
      .json()
      .rows.filter((row: { product: string }) => row.product === 'monitor');
    expect(rows).toHaveLength(2);
  });

  it('sends a synthetic risk_changed on the webhook test action, lists the routes in the OpenAPI document, and reports stats', async () => {
    const customer = await svc.account({ depositUsd: 1 });
    const created = await call(customer.apiKey, 'POST', '/v1/webhooks', {
      url: receiver.url,
      event_types: ['service.address.risk_changed'],
    });
    expect(created.statusCode).toBe(201);
    const before = receiver.received.length;
    const test = await call(customer.apiKey, 'POST', `/v1/webhooks/${created.json().id}/test`, {
      event_type: 'service.address.risk_changed',
    });
    expect(test.statusCode).toBe(202);
    const [synthetic] = (await receiver.waitFor(before + 1)).slice(before);
    expect(synthetic!.json).toMatchObject({
      event_type: 'service.address.risk_changed',
      payload: { synthetic: true, previous: { risk_level: 'none' } },
    });

    const openapi = (await svc.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/v2/monitors', '/v2/monitors/bulk', '/v2/monitors/{id}']));
    expect(Object.keys(openapi.paths['/v2/monitors/{id}'])).toEqual(expect.arrayContaining(['get', 'delete']));

    const stats = await MONITOR_VERBS['monitors stats']!(svc.services, parseArgs(['monitors', 'stats']));
    expect(stats.output).toMatchObject({
      monitors: { active: expect.any(Number), paused: expect.any(Number) },
      last_reevaluation: { change: expect.stringMatching(/^(dataset|curation):/), monitors_reevaluated: expect.any(Number) },
    });
    expect((stats.output as { lag_seconds: number }).lag_seconds).toBeGreaterThanOrEqual(0);
  });
});
