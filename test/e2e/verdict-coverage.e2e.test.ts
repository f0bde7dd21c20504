import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { entitledAccount, inspectClient } from '../support/inspect-harness.js';
import { pollUntil } from '../support/polling.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Every product's verdict says what it was checked against and what drove it. Our own sources (made-up
 * addresses, official formats): a brave-intl OFAC list naming SANCTIONED; no UK or EU list. On a real
 * chain (anvil, indexed by the block ingester) SANCTIONED sends 20 ETH to MIDDLE, which sends 10 ETH on
 * to RECIPIENT. MIDDLE is on no list: its full check is driven only by a one-hop sanctions exposure, and
 * must name the sanctions list and the transfer data behind it, with their versions.
 */
const party = (name: string) => madeUpEvmAddress(`verdict-coverage:${name}`) as Address;
const SANCTIONED = party('sanctioned');
const MIDDLE = party('middle');
const RECIPIENT = party('recipient');
const lower = (a: string) => a.toLowerCase();

let anvil: Anvil;
let sources: string;
let svc: TestService;
let key: string;
let txHash: string;
let lastBlock: number;

const auth = () => ({ authorization: `Bearer ${key}` });
const post = (url: string, payload: object) => svc.app.inject({ method: 'POST', url, headers: auth(), payload });
const get = (url: string) => svc.app.inject({ method: 'GET', url, headers: auth() });
async function polled(url: string) {
  return pollUntil(async () => {
    const response = await get(url);
    return response.statusCode === 202 ? null : response;
  });
}

type Lists = {
  checked: string[];
  not_checked: string[];
  lists: { jurisdiction: string; source: string; list_date: string | null; age_days: number }[];
};
type Versions = {
  sources: { source: string; version: string; imported_at: string }[];
  transfer_data?: { name: string; kind: string; version: string | null; as_of: string | null; up_to_block: number | null }[];
};

/** The US list checked (the brave-intl extract, dated by its content), UK and EU said not to be. */
function expectUsOnly(sanctions: Lists) {
  expect(sanctions.checked).toEqual(['US']);
  expect(sanctions.not_checked).toEqual(['UK', 'EU']);
  expect(sanctions.lists).toEqual([
    expect.objectContaining({ jurisdiction: 'US', source: 'ofac_brave_lists', age_days: expect.any(Number) }),
  ]);
}

function expectTracedVersions(versions: Versions) {
  expect(versions.sources).toEqual([
    expect.objectContaining({ source: 'ofac_brave_lists', version: expect.any(String), imported_at: expect.any(String) }),
  ]);
  expect(versions.transfer_data).toEqual([
    expect.objectContaining({
      name: 'rpc:ETH',
      kind: 'ingested_blocks',
      version: `blocks up to ${lastBlock}`,
      up_to_block: lastBlock,
      as_of: expect.any(String),
    }),
  ]);
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  sources = await mkdtemp(join(tmpdir(), 'svc-verdict-coverage-'));
  await mkdir(join(sources, 'ofac-brave-intl-lists'));
  await writeFile(join(sources, 'ofac-brave-intl-lists', 'sanctioned_addresses_ETH.txt'), `${SANCTIONED}\n`);
  svc = await startTestService({
    SVC_SOURCES_DIR: sources,
    CHAIN_RPC_ETH: anvil.rpcUrl,
    SVC_INGEST_RPC_URL: anvil.rpcUrl,
    SVC_INGEST_POLL_MS: '3600000',
  });
  const chain = transferChain(anvil.rpcUrl);
  await chain.sendNative(SANCTIONED, MIDDLE, '20');
  txHash = await chain.sendNative(MIDDLE, RECIPIENT, '10');
  await svc.services.fullCheck.ingester!.syncOnce();
  await svc.services.fullCheck.whenCaughtUp();
  // the last transfer's block: the ingested data reaches it
  lastBlock = Number(await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlockNumber());
  ({ apiKey: key } = await svc.account({ depositUsd: 20 }));
}, 90_000);
afterAll(async () => {
  await svc?.close();
  await anvil?.stop();
  if (sources) await rm(sources, { recursive: true, force: true });
});

describe('what each verdict was checked against, and what drove it', () => {
  it('the light screen names the US list it checked, with its date and age, and says UK and EU were not checked', async () => {
    const screened = await post('/v2/screen', { address: SANCTIONED, network: 'ETH' });
    expect(screened.statusCode, screened.body).toBe(200);
    const body = screened.json();
    expect(body.verdict.risk_level).toBe('sanctioned');
    expectUsOnly(body.coverage.sanctions);
    expect(body.coverage.data_versions.sources).toEqual([expect.objectContaining({ source: 'ofac_brave_lists' })]);
  });

  it('a full check driven only by a one-hop sanctions exposure names the sanctions list and the transfer data, and shows their sources and confidence', async () => {
    const submitted = await post('/v2/check-address', { address: MIDDLE, network: 'ETH' });
    expect(submitted.statusCode, submitted.body).toBe(202);
    const result = await polled(submitted.json().result_url);
    expect(result.statusCode, result.body).toBe(200);
    const body = result.json();
    expect(body).toMatchObject({
      decision: 'review',
      verdict: { risk_level: 'high', ownership_risk_level: 'none', exposure_risk_level: 'high', primary_source_slug: 'ofac_brave_lists' },
      coverage: { data_available: false, transfer_history: true },
    });
    // "Sources" and "Confidence" of a verdict driven by exposure are the exposure's, not 0 and null
    expect(body.verdict.source_count).toBe(1);
    expect(body.verdict.confidence).toBeGreaterThan(0);
    expect(body.evidence).toEqual([
      expect.objectContaining({ slug: 'sanctions', relation: 'direct', risk_level: 'high', sources: ['ofac_brave_lists'] }),
    ]);
    expect(body.exposure.direct_incoming.categories).toEqual([expect.objectContaining({ slug: 'sanctions', risk_level: 'high' })]);
    expectUsOnly(body.coverage.sanctions);
    expectTracedVersions(body.coverage.data_versions);
  });

  it('explore rates the same exposure as the full check does (high, never sanctioned)', async () => {
    const submitted = await post('/v2/explore', { address: MIDDLE, network: 'ETH', direction: 'in' });
    expect(submitted.statusCode, submitted.body).toBe(202);
    const report = (await polled(submitted.json().result_url)).json();
    expect(report.categories).toEqual([expect.objectContaining({ slug: 'sanctions', risk_level: 'high' })]);
  });

  it('the transfer check names the lists, the source behind its sender’s exposure and the transfer data; its composite and worst alert agree', async () => {
    const response = await post('/v2/check-transfer', { chain: 'ETH', tx_hash: txHash });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.composite_result.senders).toEqual([
      expect.objectContaining({
        address: lower(MIDDLE),
        data_available: false,
        indirect_categories: [expect.objectContaining({ slug: 'sanctions', share: 100, hops: 1 })],
      }),
    ]);
    // exposure alone stops at high: composite 8 of 10 "high" beside the worst alert High / hold
    expect(body.composite_result).toMatchObject({ risk_score: 8, risk_level: 'high' });
    expect(body.policy_result).toMatchObject({ worst_level: 'High', recommended_action: 'hold' });
    expectUsOnly(body.coverage.sanctions);
    expectTracedVersions(body.coverage.data_versions);
  });

  it('a monitor and the inspect’s own engine state the lists their verdicts were checked against', async () => {
    const watched = await post('/v2/monitors', { address: SANCTIONED, network: 'ETH' });
    expect(watched.statusCode, watched.body).toBe(201);
    expectUsOnly(watched.json().sanctions);
    expectUsOnly((await get(`/v2/monitors/${watched.json().monitor_id}`)).json().sanctions);

    const entitled = await entitledAccount(svc, { providers: [] });
    const inspected = await inspectClient(svc, entitled.apiKey).inspect({ address: SANCTIONED, network: 'ETH' });
    expect(inspected.statusCode, inspected.body).toBe(200);
    const own = inspected.json().providers.service;
    expectUsOnly(own.verdict.coverage.sanctions);
    expect(own.assessment.summary).toMatch(/sanctions lists checked: US; not checked: UK, EU/);
  });
});
