import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWebhookActor } from '../../commands/webhook-actor.js';
import { createSubscription } from '../../commands/webhook-subscriptions.commands.js';
import { importOneSource } from '../../infra/sources/import-sources.js';
import { fixtureText } from '../helpers/source-fixtures.js';
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
const BASE_XML = fixtureText('ofac-sdn-official/sdn_advanced.digital-currency-subset.xml');

/** The fixture list issued on `day`, optionally with one more ETH address for its first party. */
function sdnList(day: string, extraAddress?: string): string {
  const [year, month, date] = day.split('-').map(Number);
  let xml = BASE_XML.replace(/<DateOfIssue CalendarTypeID="1">[\s\S]*?<\/DateOfIssue>/, `<DateOfIssue CalendarTypeID="1"><Year>${year}</Year><Month>${month}</Month><Day>${date}</Day></DateOfIssue>`);
  if (extraAddress) {
    const feature = `<Feature ID="69999" FeatureTypeID="345"><FeatureVersion ID="69998" ReliabilityID="1"><Comment /><VersionDetail DetailTypeID="1432">${extraAddress}</VersionDetail></FeatureVersion><IdentityReference IdentityID="69999" IdentityFeatureLinkTypeID="1" /></Feature>\n        <Feature ID="60002"`;
    xml = xml.replace('<Feature ID="60002"', feature);
  }
  return xml;
}

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
  svc.app.inject({ method, url, headers: { authorization: `Bearer ${apiKey}`, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('monitors', () => {
  it('re-screens a watched address when a new sanctions list version lists it, and back when the next one drops it', async () => {
    const customer = await svc.account({ depositUsd: 5 });
    const actor = await loadWebhookActor(svc.services.app.webhooks.commands, customer.userId, 'api_key');
    const subscribed = await createSubscription(svc.services.app.webhooks.commands, actor, { url: receiver.url, eventTypes: ['service.address.risk_changed'] });
    await svc.services.projections.whenProcessed(subscribed.position);

    const created = await call(customer.apiKey, 'POST', '/v2/monitors', { address: WATCHED, network: 'eth', reference: 'customer-42' });
    expect(created.statusCode).toBe(201);
    const monitor = created.json();
    expect(monitor).toMatchObject({ address: WATCHED, network: 'ETH', reference: 'customer-42', status: 'active', verdict: { risk_level: 'none', sdn_match: null } });
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
      current: { risk_level: 'sanctioned', risk_categories: ['sanctions'], sdn_match: { list: 'US', entity: 'EXAMPLE SANCTIONED GROUP', list_date: '2022-04-14' } },
      reasons: [{ source: 'ofac_sdn', change: 'dataset_imported', version: '2026-03-02' }],
    });

    const read = (await call(customer.apiKey, 'GET', `/v2/monitors/${monitor.monitor_id}`)).json();
    expect(read.verdict.risk_level).toBe('sanctioned');
    expect(read.history).toHaveLength(1);
    expect(read.history[0]).toMatchObject({ previous: { risk_level: 'none' }, current: { risk_level: 'sanctioned', sdn_match: { list_date: '2022-04-14' } }, reasons: [{ version: '2026-03-02' }] });
    expect((await call(customer.apiKey, 'GET', `/v2/monitors/${bystander.monitor_id}`)).json().history).toEqual([]);

    await importList('2026-03-03');
    const [, delisted] = await receiver.waitFor(2);
    expect(delisted!.json.payload).toMatchObject({ previous: { risk_level: 'sanctioned' }, current: { risk_level: 'none', sdn_match: null }, reasons: [{ version: '2026-03-03' }] });
    expect(delisted!.json.delivery_id).not.toBe(listed!.json.delivery_id);
    expect((await call(customer.apiKey, 'GET', `/v2/monitors/${monitor.monitor_id}`)).json().history).toHaveLength(2);
    expect(receiver.received.filter((r) => r.json.payload?.monitor_id === bystander.monitor_id)).toEqual([]);
  });
});
