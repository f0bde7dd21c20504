import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedgers } from '../../infra/cli/ledger-audit.js';
import { entitledAccount, inspectClient, recordedProviderEnv, sourcesSubset } from '../support/inspect-harness.js';
import { startRecordedProviders, type RecordedProviders } from '../support/recorded-providers.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The inspect's "done" as a new customer would try it: an OFAC-listed address, read from the real data
 * (SVC_SOURCES_DIR, ../shared/data by default) at run time, inspected by the own engine and the two
 * recorded providers. Only the OFAC sources are imported (symlinked, not copied), to keep the suite fast.
 */
const sourcesDir = resolve(process.env.SVC_SOURCES_DIR || '../shared/data');
const OFAC_ETH = join(sourcesDir, 'ofac-ultrasoundmoney-eth', 'data.csv');
const OFAC_TRON = join(sourcesDir, 'ofac-1020-1795-wallet-lists', '2_Tron_Sanctioned_Wallet_List.txt');
const available = existsSync(OFAC_ETH) && existsSync(OFAC_TRON);

const firstOfacEth = (): string => readFileSync(OFAC_ETH, 'utf8').split(/\r?\n/)[1]!.split(',')[0]!.toLowerCase();
const firstOfacTron = (): string =>
  readFileSync(OFAC_TRON, 'utf8')
    .split(/\r?\n/)
    .find((l) => l.startsWith('T'))!
    .trim();

let recorded: RecordedProviders;
let sources: Awaited<ReturnType<typeof sourcesSubset>>;
let svc: TestService;

describe.skipIf(!available)(`inspect of OFAC-listed addresses from ${sourcesDir}`, () => {
  beforeAll(async () => {
    recorded = await startRecordedProviders();
    sources = await sourcesSubset(sourcesDir, ['ofac-ultrasoundmoney-eth', 'ofac-1020-1795-wallet-lists']);
    svc = await startTestService({ ...recordedProviderEnv(recorded), SVC_SOURCES_DIR: sources.dir });
    for (const address of [firstOfacEth(), firstOfacTron()]) {
      recorded.answer('goplus', { fixture: 'goplus/address-security.flagged.json' }, address);
      recorded.answer('chainalysis', { fixture: 'chainalysis/address.sanctioned.json' }, address);
    }
  }, 60_000);
  afterAll(async () => {
    await recorded?.close();
    await svc?.close();
    await sources?.remove();
  });

  it('ETH: the audit says not to deal, the three providers agree, 0.30 USD charged, the ledger replays clean', async () => {
    const { userId, apiKey } = await entitledAccount(svc);
    const api = inspectClient(svc, apiKey);
    const response = await api.inspect({ address: firstOfacEth(), network: 'ETH' }, 'first-try');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.audit).toMatchObject({
      decision: 'do_not_deal',
      can_deal: false,
      exchange_would_flag: true,
      providers_agreeing: 3,
      providers_answered: 3,
    });
    expect(body.providers.service.verdict.verdict).toMatchObject({ risk_level: 'sanctioned', sdn_match: { list: 'US' } });
    expect(body.billing).toMatchObject({ charged_usd: 0.3, balance_usd: 9.7 });
    expect((await api.usage()).rows).toMatchObject([{ call_id: body.check_id, charged_usd: 0.3, refunded_usd: 0 }]);
    expect((await auditLedgers(svc.services, userId)).mismatches).toBe(0);
  });

  it('TRON on a quota plan: 3 units, the base58 address kept as listed', async () => {
    const { apiKey } = await entitledAccount(svc, { plan: { kind: 'quota', monthlyUnits: 15 } });
    const body = (await inspectClient(svc, apiKey).inspect({ address: firstOfacTron(), network: 'tron' })).json();
    expect(body).toMatchObject({ address: firstOfacTron(), network: 'TRON', audit: { decision: 'do_not_deal', providers_agreeing: 3 } });
    expect(body.billing).toMatchObject({ model: 'quota', charged_units: 3 });
  });
});
