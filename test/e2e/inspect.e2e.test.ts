import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../commands/api-keys.commands.js';
import { parseArgs } from '../../infra/cli/args.js';
import type { auditLedgers } from '../../infra/cli/ledger-audit.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { fixtureText, SOURCE_FIXTURES } from '../helpers/source-fixtures.js';
import { entitledAccount, inspectClient, recordedProviderEnv, sourcesSubset } from '../support/inspect-harness.js';
import { pollUntil } from '../support/polling.js';
import { fixture, startRecordedProviders, type RecordedProviders } from '../support/recorded-providers.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * POST /v2/inspect-address and its result, as a customer with an entitled key sees them: the own engine
 * on made-up sanctions data (test/fixtures/sources), GoPlus and Chainalysis answering recorded responses
 * from 127.0.0.1, the real processor, ledger and usage.
 */
const listed = fixtureText('ofac-ultrasoundmoney-eth/data.csv')
  .split(/\r?\n/)
  .slice(1, 3)
  .map((line) => line.split(',')[0]!.toLowerCase());
const [SANCTIONED, ALSO_SANCTIONED] = listed as [string, string];

let recorded: RecordedProviders;
let sources: Awaited<ReturnType<typeof sourcesSubset>>;
let svc: TestService;

beforeAll(async () => {
  recorded = await startRecordedProviders();
  sources = await sourcesSubset(SOURCE_FIXTURES, ['ofac-ultrasoundmoney-eth']);
  svc = await startTestService({
    ...recordedProviderEnv(recorded),
    SVC_SOURCES_DIR: sources.dir,
    // provider_c: configured but switched off; provider_d: asked about ETH only
    SVC_PROVIDER_C_KIND: 'goplus_address_security',
    SVC_PROVIDER_C_URL: recorded.url,
    SVC_PROVIDER_C_ENABLED: '0',
    SVC_PROVIDER_D_KIND: 'chainalysis_sanctions',
    SVC_PROVIDER_D_URL: recorded.url,
    SVC_PROVIDER_D_KEY: 'recorded-test-key',
    SVC_PROVIDER_D_NETWORKS: 'ETH',
  });
  recorded.answer('goplus', { fixture: 'goplus/address-security.flagged.json' }, SANCTIONED);
  recorded.answer('chainalysis', { fixture: 'chainalysis/address.sanctioned.json' }, SANCTIONED);
});
afterAll(async () => {
  await recorded?.close();
  await svc?.close();
  await sources?.remove();
});

describe('inspect with the engine and two providers', () => {
  it('a sanctioned address: do not deal, an exchange would flag it, 3 of 3 agree, 0.30 USD charged once', async () => {
    const { userId, apiKey } = await entitledAccount(svc);
    const api = inspectClient(svc, apiKey);
    const response = await api.inspect({ address: SANCTIONED, network: 'eth' }, 'order-1');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'completed', address: SANCTIONED, network: 'ETH', waived_providers: [], skipped_providers: [] });
    expect(body.audit).toMatchObject({
      decision: 'do_not_deal',
      can_deal: false,
      exchange_would_flag: true,
      sanctioned: true,
      providers_answered: 3,
      providers_failed: 0,
      providers_agreeing: 3,
      disagreements: [],
    });
    expect(Object.keys(body.providers)).toEqual(['service', 'provider_a', 'provider_b']);
    expect(body.providers.service).toMatchObject({
      ok: true,
      verdict: { verdict: { risk_level: 'sanctioned' }, coverage: { data_available: true } },
    });
    expect(body.providers.provider_a).toMatchObject({ ok: true, verdict: fixture('goplus/address-security.flagged.json') });
    expect(body.providers.provider_b).toMatchObject({ ok: true, verdict: fixture('chainalysis/address.sanctioned.json') });
    expect(body.billing).toMatchObject({ model: 'ledger', charged_usd: 0.3, balance_usd: 9.7, replay: false });

    // the result again (poll and same-key retry): same audit, no further charge
    const again = await api.result(body.check_id);
    expect(again.statusCode).toBe(200);
    expect(again.json().audit).toEqual(body.audit);
    expect(again.json().billing).toMatchObject({ charged_usd: 0.3, balance_usd: 9.7, replay: true });
    const retried = (await api.inspect({ address: SANCTIONED, network: 'ETH' }, 'order-1')).json();
    expect(retried.check_id).toBe(body.check_id);
    expect((await api.balance()).balance_usd).toBe(9.7);
    // Read back as a stored verdict (GET /v2/verdicts/{id}): the audit and its receipt, free.
    const stored = await pollUntil(async () => {
      const response = await svc.app.inject({
        method: 'GET',
        url: `/v2/verdicts/${body.check_id}`,
        headers: { authorization: `Bearer ${apiKey}` },
      });
      return response.statusCode === 200 ? response : null;
    });
    expect(stored.json()).toMatchObject({ kind: 'inspect', receipt: body.receipt, receipt_note: null, verdict: { audit: body.audit } });
    expect((await api.balance()).balance_usd).toBe(9.7);

    const usage = await api.usage();
    expect(usage.rows).toHaveLength(1);
    expect(usage.rows[0]).toMatchObject({
      call_id: body.check_id,
      product: 'inspect',
      endpoint: 'POST /v2/inspect-address',
      charged_usd: 0.3,
      refunded_usd: 0,
    });
    const ledger = [];
    for await (const e of svc.services.store.read(`ledger-${userId}`)) ledger.push(e);
    expect(ledger.find((e) => e.type === 'Charged')!.data).toMatchObject({
      details: {
        providers: [
          { provider: 'service', outcome: 'answered', charged: true },
          { provider: 'provider_a', outcome: 'answered', charged: true },
          { provider: 'provider_b', outcome: 'answered', charged: true },
        ],
      },
    });
  });

  it('on a quota plan the same inspect costs 3 units', async () => {
    const { apiKey } = await entitledAccount(svc, { plan: { kind: 'quota', monthlyUnits: 15 } });
    const body = (await inspectClient(svc, apiKey).inspect({ address: SANCTIONED, network: 'ETH' })).json();
    expect(body.billing).toMatchObject({ model: 'quota', charged_units: 3, units_used: 3, monthly_quota: 15 });
  });

  it('one provider down (503): its {ok:false} entry, the others answer and only they are charged, nothing refunded', async () => {
    recorded.answer('chainalysis', { status: 503, text: 'Service Unavailable' }, ALSO_SANCTIONED);
    const { apiKey } = await entitledAccount(svc);
    const api = inspectClient(svc, apiKey);
    const body = (await api.inspect({ address: ALSO_SANCTIONED, network: 'ETH' })).json();
    expect(body.providers.provider_b).toEqual({ ok: false, error: 'http_503', elapsed_ms: expect.any(Number) });
    expect(body.providers.provider_a.ok).toBe(true);
    // the engine names the sanctions designation; GoPlus' recorded answer for this address found nothing
    expect(body.audit).toMatchObject({ decision: 'do_not_deal', providers_answered: 2, providers_failed: 1, providers_agreeing: 1 });
    expect(body.audit.disagreements).toEqual([{ provider: 'provider_a', stance: 'no_signal', risk_level: 'none', risk_categories: [] }]);
    expect(body.billing).toMatchObject({ charged_usd: 0.2, balance_usd: 9.8 });
    const usage = await api.usage();
    expect(usage.rows[0]).toMatchObject({ charged_usd: 0.2, refunded_usd: 0 });
  });

  it('every provider down: 502, charged and fully refunded at once, visible in the usage and the ledger replay', async () => {
    const address = madeUpEvmAddress('inspect-all-down').toLowerCase();
    recorded.answer('goplus', { status: 502, text: 'Bad Gateway' }, address);
    recorded.answer('chainalysis', { status: 503, text: 'Service Unavailable' }, address);
    const { userId, apiKey } = await entitledAccount(svc);
    const api = inspectClient(svc, apiKey);
    // the intelligence backend fails too (a simulated outage of the index behind the own engine)
    const intel = svc.services.intel;
    const lookup = intel.lookup;
    intel.lookup = () => {
      throw new Error('intelligence backend offline');
    };
    let response;
    try {
      response = await api.inspect({ address, network: 'ETH' });
    } finally {
      intel.lookup = lookup;
    }
    expect(response.statusCode).toBe(502);
    const body = response.json();
    expect(body.error.code).toBe('backend_unavailable');
    expect(body.providers).toEqual({
      service: { ok: false, error: 'backend_unavailable', elapsed_ms: expect.any(Number) },
      provider_a: { ok: false, error: 'http_502', elapsed_ms: expect.any(Number) },
      provider_b: { ok: false, error: 'http_503', elapsed_ms: expect.any(Number) },
    });
    expect(body.billing).toMatchObject({ charged_usd: 0, balance_usd: 10 });
    // polling the failed check answers the same 502 and takes nothing
    expect((await api.result(body.check_id)).statusCode).toBe(502);
    expect((await api.balance()).balance_usd).toBe(10);

    const usage = await api.usage();
    expect(usage.rows).toHaveLength(1);
    expect(usage.rows[0]).toMatchObject({ call_id: body.check_id, charged_usd: 0.3, refunded_usd: 0.3 });
    expect(usage.rows[0].refund_reason).toMatch(
      /every provider failed: service \(backend_unavailable\), provider_a \(http_502\), provider_b \(http_503\)/,
    );
    const replay = await runVerb(svc.services, parseArgs(['ledger', 'replay', '--account', userId]));
    expect(replay.exitCode).toBe(0);
    expect((replay.output as Awaited<ReturnType<typeof auditLedgers>>).accounts[0]!.replayed).toMatchObject({
      balance_micros: 10_000_000,
      charges: 1,
      refunds: 1,
    });
  });
});

describe('who may inspect, and what is asked', () => {
  it('a key not enabled for inspect gets 403 consensus_not_entitled', async () => {
    const { apiKey } = await svc.account({ depositUsd: 5 });
    const response = await inspectClient(svc, apiKey).inspect({ address: SANCTIONED, network: 'ETH' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('consensus_not_entitled');
  });

  it('networks outside ETH, BSC and TRON are 400 unsupported_network with supported_networks', async () => {
    const { apiKey } = await entitledAccount(svc);
    const response = await inspectClient(svc, apiKey).inspect({ address: SANCTIONED, network: 'POLYGON' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'unsupported_network' }, supported_networks: ['BSC', 'ETH', 'TRON'] });
  });

  it('providers outside the entitlement are dropped silently; disabled ones are waived and network misfits skipped, none charged', async () => {
    const { apiKey } = await entitledAccount(svc, { providers: ['provider_a', 'provider_b', 'provider_c', 'provider_d'] });
    const api = inspectClient(svc, apiKey);
    const asked = (await api.inspect({ address: SANCTIONED, network: 'ETH', providers: ['provider_b', 'provider_x'] })).json();
    expect(Object.keys(asked.providers)).toEqual(['service', 'provider_b']);
    expect(asked.billing.charged_usd).toBe(0.2);
    const onBsc = (await api.inspect({ address: SANCTIONED, network: 'BSC' })).json();
    expect(Object.keys(onBsc.providers)).toEqual(['service', 'provider_a', 'provider_b']);
    expect(onBsc).toMatchObject({ waived_providers: ['provider_c'], skipped_providers: ['provider_d'] });
    expect(onBsc.billing.charged_usd).toBe(0.3);
  });

  it('an operator saves the active subset with the CLI; requests naming no providers then use it', async () => {
    const { userId, apiKey } = await entitledAccount(svc);
    const cli = (line: string) => runVerb(svc.services, parseArgs(line.split(' ')));
    const saved = await cli(`account providers --user ${userId} --providers provider_b,provider_z`);
    expect(saved.output).toEqual({ user_id: userId, entitled: ['provider_a', 'provider_b'], selected: ['provider_b'] });
    const body = (await inspectClient(svc, apiKey).inspect({ address: SANCTIONED, network: 'ETH' })).json();
    expect(Object.keys(body.providers)).toEqual(['service', 'provider_b']);
    const listed = (await cli('providers list')).output as { providers: Record<string, unknown>[] };
    expect(listed.providers.map((p) => [p.name, p.kind, p.enabled, p.key_set])).toEqual([
      ['provider_a', 'goplus_address_security', true, false],
      ['provider_b', 'chainalysis_sanctions', true, true],
      ['provider_c', 'goplus_address_security', false, false],
      ['provider_d', 'chainalysis_sanctions', true, true],
    ]);
    expect(JSON.stringify(listed)).not.toContain('recorded-test-key');
    const shown = (await cli(`inspect show --check ${body.check_id}`)).output as { status: string; outcomes: unknown[] };
    expect(shown).toMatchObject({ status: 'completed', audit: { decision: 'do_not_deal' } });
    expect(shown.outcomes).toHaveLength(2);
  });

  it('a key’s saved subset comes before the account’s; another key of the account keeps the account’s', async () => {
    const { userId, apiKey, keyId } = await entitledAccount(svc);
    const other = await issueApiKey(svc.services.commands, userId);
    await svc.services.projections.whenCaughtUp();
    const cli = (line: string) => runVerb(svc.services, parseArgs(line.split(' ')));
    await cli(`account providers --user ${userId} --providers provider_b`);
    expect((await cli(`key providers --user ${userId} --key ${keyId} --providers provider_a`)).output).toMatchObject({
      selected: ['provider_a'],
    });
    const asked = async (key: string) =>
      Object.keys((await inspectClient(svc, key).inspect({ address: SANCTIONED, network: 'ETH' })).json().providers);
    expect(await asked(apiKey)).toEqual(['service', 'provider_a']);
    expect(await asked(other.apiKey)).toEqual(['service', 'provider_b']);
    await cli(`key providers --user ${userId} --key ${keyId} --clear`);
    expect(await asked(apiKey)).toEqual(['service', 'provider_b']);
    await expect(cli(`key providers --user ${userId} --key not-a-key --providers provider_a`)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('the same Idempotency-Key with another body is 409 idempotency_conflict', async () => {
    const { apiKey } = await entitledAccount(svc);
    const api = inspectClient(svc, apiKey);
    expect((await api.inspect({ address: SANCTIONED, network: 'ETH' }, 'same-key')).statusCode).toBe(200);
    const conflict = await api.inspect({ address: ALSO_SANCTIONED, network: 'ETH' }, 'same-key');
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('idempotency_conflict');
  });

  it('an account that cannot pay for every provider is refused with 402 before any provider is asked', async () => {
    const address = madeUpEvmAddress('inspect-cannot-pay').toLowerCase();
    const { apiKey } = await entitledAccount(svc, { depositUsd: 0.25 });
    const response = await inspectClient(svc, apiKey).inspect({ address, network: 'ETH' });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ error: { code: 'insufficient_funds' }, billing: { shortfall_usd: 0.05, charged_usd: 0 } });
    await svc.services.whenCaughtUp();
    expect(recorded.requests.filter((r) => r.address === address)).toEqual([]);
  });

  it('another user’s check id, an unknown one and a malformed one are all 404', async () => {
    const owner = await entitledAccount(svc);
    const checkId = (await inspectClient(svc, owner.apiKey).inspect({ address: SANCTIONED, network: 'ETH' })).json().check_id;
    const stranger = inspectClient(svc, (await entitledAccount(svc)).apiKey);
    for (const id of [checkId, '019a0000-0000-7000-8000-000000000000', 'not-a-check', 'x'.repeat(90)]) {
      const response = await stranger.result(id);
      expect(response.statusCode, id).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });
});
