import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCode } from '../../domain/shared/errors.js';
import { loadConfig } from '../../infra/config.js';
import { join } from 'node:path';
import { importFromDirectory, importOneSource } from '../../infra/sources/import-sources.js';
import { SOURCE_CATALOG } from '../../infra/sources/source-catalog.js';
import { importConfiguredSources } from '../../infra/startup/import-sources.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { MINIMAL_SANCTIONS_ADDRESS, MINIMAL_SANCTIONS_DIR, SOURCE_FIXTURES } from '../helpers/source-fixtures.js';
import { freePort, spawnTsx } from '../support/processes.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startX402Harness, type X402Harness } from '../support/x402-harness.js';

/**
 * A first start with no internet and no SVC_SOURCES_DIR holds no sanctions list. Screening then must not
 * answer "no risk": the light screen, the full check and the x402 screen answer 502 backend_unavailable,
 * nothing charged or settled; health says degraded and why; the start warns and says how to load data.
 * Misconfiguration stops the start.
 */
const ADDRESS = madeUpEvmAddress('no-sanctions:somebody').toLowerCase();

describe('V2 without any sanctions list', () => {
  let svc: TestService;
  let key: string;
  const post = (url: string, payload: object) =>
    svc.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}` }, payload });
  const balance = async () =>
    (await svc.app.inject({ method: 'GET', url: '/v2/balance', headers: { authorization: `Bearer ${key}` } })).json().balance_usd as number;

  beforeAll(async () => {
    svc = await startTestService({ SVC_SYNC_ON_START: '0', SVC_SANCTIONS_MAX_AGE_DAYS: '3650' }, undefined, undefined, {
      sanctions: 'none',
    });
    ({ apiKey: key } = await svc.account({ depositUsd: 5 }));
  });
  afterAll(() => svc.close());

  it('the light screen and the full check answer 502 backend_unavailable and charge nothing', async () => {
    const before = await balance();
    const screened = await post('/v2/screen', { address: ADDRESS, network: 'ETH' });
    expect(screened.statusCode, screened.body).toBe(502);
    expect(screened.json().error.code).toBe('backend_unavailable');
    expect(screened.json().error.message).toMatch(/no sanctions list/);
    const checked = await post('/v2/check-address', { address: ADDRESS, network: 'ETH' });
    expect(checked.statusCode, checked.body).toBe(502);
    expect(checked.json().error.code).toBe('backend_unavailable');
    // A client mistake is still the client's: 400/422 before the 502.
    expect((await post('/v2/screen', { address: ADDRESS, network: 'BTC' })).statusCode).toBe(400);
    expect(await balance()).toBe(before);
  });

  it('health is degraded and says why', async () => {
    const health = await svc.app.inject({ method: 'GET', url: '/v2/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'degraded', reasons: [expect.stringMatching(/no sanctions list imported/)] });
  });

  it('the start warns for each source not imported and says once how to load data', async () => {
    const warnings: string[] = [];
    await importConfiguredSources(
      svc.services,
      () => undefined,
      (line) => warnings.push(line),
    );
    for (const entry of SOURCE_CATALOG)
      expect(warnings).toContain(`data source ${entry.descriptor.slug} not imported: no data for it was found`);
    expect(warnings.filter((line) => /SVC_SOURCES_DIR=.*data sync.*data import/.test(line))).toHaveLength(1);
    expect(warnings).toContainEqual(expect.stringMatching(/no sanctions list imported/));
  });

  it('once a sanctions list is imported it screens again, and health names only the jurisdictions still without one', async () => {
    await importFromDirectory(svc.services.commands, MINIMAL_SANCTIONS_DIR);
    await svc.services.projections.whenCaughtUp();
    const listed = await post('/v2/screen', { address: MINIMAL_SANCTIONS_ADDRESS, network: 'ETH' });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().verdict.risk_level).toBe('sanctioned');
    expect(listed.json().coverage.sanctions).toMatchObject({ checked: ['US'], not_checked: ['UK', 'EU'] });
    expect((await post('/v2/screen', { address: ADDRESS, network: 'ETH' })).statusCode).toBe(200);
    const health = (await svc.app.inject({ method: 'GET', url: '/v2/health' })).json();
    expect(health.status).toBe('degraded');
    expect(health.reasons).toEqual([
      'no UK sanctions list imported: verdicts are not checked against UK sanctions and say so (coverage.sanctions.not_checked)',
      'no EU sanctions list imported: verdicts are not checked against EU sanctions and say so (coverage.sanctions.not_checked)',
    ]);
    expect(health.sanctions).toMatchObject({ checked: ['US'], not_checked: ['UK', 'EU'], required: [] });
  });
});

describe('SVC_REQUIRED_SANCTIONS=US,UK,EU with only the US list', () => {
  let svc: TestService;
  let key: string;
  const post = (url: string, payload: object) =>
    svc.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}` }, payload });
  const balance = async () =>
    (await svc.app.inject({ method: 'GET', url: '/v2/balance', headers: { authorization: `Bearer ${key}` } })).json().balance_usd as number;

  beforeAll(async () => {
    svc = await startTestService({ SVC_SYNC_ON_START: '0', SVC_SANCTIONS_MAX_AGE_DAYS: '3650', SVC_REQUIRED_SANCTIONS: 'us, UK,eu' });
    ({ apiKey: key } = await svc.account({ depositUsd: 5 }));
  });
  afterAll(() => svc.close());

  it('fails closed like no list at all: 502 naming the missing lists, nothing charged, health degraded saying why', async () => {
    const before = await balance();
    for (const url of ['/v2/screen', '/v2/check-address']) {
      const refused = await post(url, { address: ADDRESS, network: 'ETH' });
      expect(refused.statusCode, refused.body).toBe(502);
      expect(refused.json().error).toMatchObject({
        code: 'backend_unavailable',
        message: expect.stringMatching(/^no UK, EU sanctions list/),
      });
    }
    expect(await balance()).toBe(before);
    const health = (await svc.app.inject({ method: 'GET', url: '/v2/health' })).json();
    expect(health).toMatchObject({ status: 'degraded', sanctions: { checked: ['US'], required: ['US', 'UK', 'EU'] } });
    expect(health.reasons).toContain(
      'no UK sanctions list imported and UK is required (SVC_REQUIRED_SANCTIONS): screening answers 502 backend_unavailable until one is',
    );
  });

  it('screens once the UK and EU lists are imported (made-up entries in the official OFSI and EU formats), saying all three were checked', async () => {
    await importOneSource(svc.services.commands, 'ofsi_uk', join(SOURCE_FIXTURES, 'ofsi-uk-consolidated'));
    await importOneSource(svc.services.commands, 'eu_fsf', join(SOURCE_FIXTURES, 'eu-fsf-consolidated'));
    await svc.services.projections.whenCaughtUp();
    const screened = await post('/v2/screen', { address: ADDRESS, network: 'ETH' });
    expect(screened.statusCode, screened.body).toBe(200);
    const sanctions = screened.json().coverage.sanctions;
    expect(sanctions).toMatchObject({ checked: ['US', 'UK', 'EU'], not_checked: [] });
    expect(
      sanctions.lists.map((l: { jurisdiction: string; source: string; list_date: string }) => [l.jurisdiction, l.source, l.list_date]),
    ).toEqual([
      ['US', 'ofac_sdn', '2025-01-15'],
      ['UK', 'ofsi_uk', '2026-03-14'],
      ['EU', 'eu_fsf', '2026-03-20'],
    ]);
    const health = (await svc.app.inject({ method: 'GET', url: '/v2/health' })).json();
    expect(health.status).toBe('ok');
    expect(health.reasons).toBeUndefined();
  });
});

describe('a sanctions list past its age', () => {
  it('makes health degraded with a warning naming it, and still screens', async () => {
    // The minimal list is dated 2025-01-15: older than a 30-day limit.
    const svc = await startTestService({ SVC_SANCTIONS_MAX_AGE_DAYS: '30', SVC_SYNC_ON_START: '0' });
    try {
      const health = (await svc.app.inject({ method: 'GET', url: '/v2/health' })).json();
      expect(health.status).toBe('degraded');
      expect(health.reasons).toContainEqual(
        expect.stringMatching(/^sanctions list ofac_sdn is \d+ days old \(version 2025-01-15; older than 30 days\)/),
      );
      const warnings: string[] = [];
      await importConfiguredSources(
        svc.services,
        () => undefined,
        (line) => warnings.push(line),
      );
      expect(warnings).toContainEqual(expect.stringMatching(/^sanctions list ofac_sdn is \d+ days old/));
      const { apiKey } = await svc.account({ depositUsd: 1 });
      const screened = await svc.app.inject({
        method: 'POST',
        url: '/v2/screen',
        headers: { authorization: `Bearer ${apiKey}` },
        payload: { address: ADDRESS, network: 'ETH' },
      });
      expect(screened.statusCode).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('misconfiguration stops the start', () => {
  it('SVC_SOURCES_DIR naming a missing directory: the service exits with a message naming it', { timeout: 60_000 }, async () => {
    const env = {
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: `/tmp/svc-no-dir-${process.pid}`,
      SVC_SOURCES_DIR: '/nonexistent/sanctions-data',
    };
    await expect(spawnTsx('infra/main.ts', env, /listening on/, 30_000)).rejects.toThrow(
      /exited with 1[\s\S]*SVC_SOURCES_DIR=\/nonexistent\/sanctions-data is not a directory/,
    );
  });

  it('a malformed SVC_DEMO_API_KEY is a configuration error, not an info line', () => {
    let thrown: unknown;
    try {
      loadConfig({ SVC_DEMO_API_KEY: 'svc_too-short' });
    } catch (error) {
      thrown = error;
    }
    expect(hasCode(thrown, 'config_invalid')).toBe(true);
    expect((thrown as Error).message).toMatch(/SVC_DEMO_API_KEY/);
  });
});

describe('x402 without any sanctions list', () => {
  let h: X402Harness;
  beforeAll(async () => {
    h = await startX402Harness({ sanctions: 'none' });
  });
  afterAll(() => h.close());

  it('the screen and the full check refuse with 502 backend_unavailable before any quote or settlement', async () => {
    const before = await h.balance(h.payer.address);
    for (const path of [`/screen/ETH/${ADDRESS}`, `/check-address/ETH/${ADDRESS}`]) {
      const unpaid = await fetch(`${h.url}${path}`);
      expect(unpaid.status, path).toBe(502);
      expect(unpaid.headers.get('payment-required')).toBeNull();
      expect(await unpaid.json()).toMatchObject({ error: { code: 'backend_unavailable' } });
      const paid = await h.payingFetch()(path);
      expect(paid.status, path).toBe(502);
    }
    expect(await h.balance(h.payer.address)).toBe(before);
    expect(await h.paymentEvents()).toEqual([]);
  });
});
