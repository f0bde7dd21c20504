import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../infra/cli/args.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { loadConfig } from '../../infra/config.js';
import { probeChainEndpoints } from '../../infra/kyt/probe-chain-endpoints.js';
import { startJsonServer } from '../support/json-server.js';
import { RECORDED_TRON, startRecordedTronApi, tronTxId } from '../support/recorded-tron-api.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { devAccount, startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { pollUntil } from '../support/polling.js';
import { freePort } from '../support/processes.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * POST /v2/check-transfer and its result poll, for every kind of bad input and every billing outcome:
 * each gets the spec's status and code, and nothing but a delivered result is ever charged. ETH is a
 * local anvil chain; TRON a recorded TRON HTTP API; BSC points at a port nobody listens on (the RPC is
 * down); POLYGON has no endpoint.
 */
let anvil: Anvil;
let tron: Awaited<ReturnType<typeof startRecordedTronApi>>;
let svc: TestService;
let chain: ReturnType<typeof transferChain>;
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`;

function client(apiKey: string, service: () => TestService = () => svc) {
  const headers = { authorization: `Bearer ${apiKey}` };
  return {
    submit: (payload: unknown, extra: Record<string, string> = {}) =>
      service().app.inject({ method: 'POST', url: '/v2/check-transfer', headers: { ...headers, ...extra }, payload: payload as object }),
    result: (checkId: string) => service().app.inject({ method: 'GET', url: `/v2/transfer/${checkId}/result`, headers }),
    balance: async () => (await service().app.inject({ method: 'GET', url: '/v2/balance', headers })).json(),
    usageRows: async () => {
      await service().services.whenCaughtUp();
      return (await service().app.inject({ method: 'GET', url: '/v2/me/usage', headers })).json().rows as unknown[];
    },
  };
}

const cleanTransfer = async (seed: string) =>
  chain.sendNative(devAccount(1).address, madeUpEvmAddress(`kyt-input:${seed}`) as Address, '0.01');

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  chain = transferChain(anvil.rpcUrl);
  tron = await startRecordedTronApi();
  svc = await startTestService({
    CHAIN_RPC_ETH: anvil.rpcUrl,
    CHAIN_RPC_BSC: `http://127.0.0.1:${await freePort()}`,
    CHAIN_RPC_TRON: tron.url,
    CHAIN_RPC_TIMEOUT_MS: '2000',
  });
}, 60_000);
afterAll(async () => {
  await svc?.close();
  await tron?.close();
  await anvil?.stop();
});

describe('bad input to POST /v2/check-transfer: the spec status and code, never a charge', () => {
  it.each([
    ['a chain outside the six', { chain: 'BTC', tx_hash: UNKNOWN_HASH }, 400, 'unsupported_network'],
    ['a screening-only name', { chain: 'SOL', tx_hash: UNKNOWN_HASH }, 400, 'unsupported_network'],
    ['an unknown chain', { chain: 'FOO', tx_hash: UNKNOWN_HASH }, 400, 'bad_request'],
    ['an empty chain', { chain: ' ', tx_hash: UNKNOWN_HASH }, 400, 'bad_request'],
    ['an empty tx_hash', { chain: 'ETH', tx_hash: '' }, 400, 'bad_request'],
    ['a chain over 20 characters', { chain: 'E'.repeat(21), tx_hash: UNKNOWN_HASH }, 422, 'validation_error'],
    ['a tx_hash over 80 characters', { chain: 'ETH', tx_hash: `0x${'a'.repeat(79)}` }, 422, 'validation_error'],
    ['a short hash', { chain: 'ETH', tx_hash: '0x1234' }, 422, 'validation_error'],
    ['an EVM hash without 0x', { chain: 'ETH', tx_hash: 'ab'.repeat(32) }, 422, 'validation_error'],
    ['a hash with a non-hex digit', { chain: 'BASE', tx_hash: `0x${'g'.repeat(64)}` }, 422, 'validation_error'],
    ['a TRON id of 63 digits', { chain: 'TRON', tx_hash: 'a'.repeat(63) }, 422, 'validation_error'],
    ['a missing field', { chain: 'ETH' }, 422, 'validation_error'],
    ['an unknown field', { chain: 'ETH', tx_hash: UNKNOWN_HASH, network: 'ETH' }, 422, 'validation_error'],
    ['a number for the hash', { chain: 'ETH', tx_hash: 42 }, 422, 'validation_error'],
  ])('%s → %i %s', async (_name, payload, status, code) => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const api = client(apiKey);
    const response = await api.submit(payload);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json().error.code).toBe(code);
    if (code === 'unsupported_network')
      expect(response.json().supported_networks).toEqual(['ETH', 'BSC', 'POLYGON', 'BASE', 'ARBITRUM', 'TRON']);
    if (status === 422) expect(response.json().detail[0].loc[0]).toBe('body');
    expect((await api.balance()).balance_usd).toBe(1);
  });

  it('a hash not on the chain → 502 tx_not_found with the check id; its poll says the same; nothing charged', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const api = client(apiKey);
    const response = await api.submit({ chain: 'eth', tx_hash: UNKNOWN_HASH.toUpperCase().replace('0X', '0x') });
    expect(response.statusCode).toBe(502);
    const body = response.json();
    expect(body).toMatchObject({ error: { code: 'tx_not_found' }, status: 'failed' });
    const poll = await api.result(body.check_id);
    expect(poll.statusCode).toBe(502);
    expect(poll.json().error.code).toBe('tx_not_found');
    expect((await api.balance()).balance_usd).toBe(1);
    expect(await api.usageRows()).toEqual([]);
  });

  it('an RPC endpoint that is down → 502 backend_unavailable, nothing charged', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const api = client(apiKey);
    const response = await api.submit({ chain: 'BSC', tx_hash: UNKNOWN_HASH });
    expect(response.statusCode).toBe(502);
    expect(response.json().error.code).toBe('backend_unavailable');
    expect((await api.balance()).balance_usd).toBe(1);
  });

  it('a chain without a configured endpoint → 502 backend_unavailable before any check exists, nothing charged', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const response = await client(apiKey).submit({ chain: 'POLYGON', tx_hash: UNKNOWN_HASH });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ error: { code: 'backend_unavailable' } });
    expect(response.json().check_id).toBeUndefined();
  });
});

describe('who may run a transfer check, and what it costs', () => {
  it('a user without an organization/subgroup → 409 kyt_requires_subgroup', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1, organization: false });
    const response = await client(apiKey).submit({ chain: 'ETH', tx_hash: await cleanTransfer('no-subgroup') });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('kyt_requires_subgroup');
  });

  it('a balance under 0.50 USD → 402 insufficient_funds with the shortfall; a cap → 402 monthly_cap_exceeded', async () => {
    const txHash = await cleanTransfer('cannot-pay');
    const poor = await svc.account({ depositUsd: 0.3 });
    const refused = await client(poor.apiKey).submit({ chain: 'ETH', tx_hash: txHash });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({
      error: { code: 'insufficient_funds' },
      billing: { charged_usd: 0, balance_usd: 0.3, shortfall_usd: 0.2 },
    });
    const capped = await svc.account({ depositUsd: 5, capUsd: 0.4 });
    const capRefused = await client(capped.apiKey).submit({ chain: 'ETH', tx_hash: txHash });
    expect(capRefused.statusCode).toBe(402);
    expect(capRefused.json().error.code).toBe('monthly_cap_exceeded');
  });

  it('a quota plan pays 1 unit per check', async () => {
    const { apiKey } = await svc.account({ plan: { kind: 'quota', monthlyUnits: 15 } });
    const response = await client(apiKey).submit({ chain: 'ETH', tx_hash: await cleanTransfer('quota') });
    expect(response.statusCode).toBe(200);
    expect(response.json().billing).toMatchObject({ model: 'quota', charged_units: 1, units_used: 1 });
  });

  it('the same Idempotency-Key and body replays the result with no second charge; another body is 409', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const api = client(apiKey);
    const txHash = await cleanTransfer('idempotent');
    const first = await api.submit({ chain: 'ETH', tx_hash: txHash }, { 'idempotency-key': 'kyt-1' });
    const again = await api.submit({ chain: 'eth', tx_hash: txHash.toUpperCase().replace('0X', '0x') }, { 'idempotency-key': 'kyt-1' });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ check_id: first.json().check_id, billing: { replay: true } });
    const other = await api.submit({ chain: 'ETH', tx_hash: await cleanTransfer('idempotent-2') }, { 'idempotency-key': 'kyt-1' });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency_conflict');
    expect((await api.balance()).balance_usd).toBe(0.5);
  });
});

describe('the asynchronous path: 202, then the poll', () => {
  let quick: TestService;
  beforeAll(async () => {
    quick = await startTestService({ CHAIN_RPC_ETH: anvil.rpcUrl, SVC_KYT_SYNC_WAIT_MS: '0' });
  }, 60_000);
  afterAll(() => quick?.close());

  it('202 {check_id, retry_url}; polling gives 200 charged once; other users and unknown ids get 404', async () => {
    const owner = await quick.account({ depositUsd: 1 });
    const api = client(owner.apiKey, () => quick);
    const submitted = await api.submit({ chain: 'ETH', tx_hash: await cleanTransfer('async') });
    expect(submitted.statusCode).toBe(202);
    const { check_id: checkId, retry_url: retryUrl } = submitted.json();
    expect(retryUrl).toBe(`/v2/transfer/${checkId}/result`);
    expect((await api.balance()).balance_usd).toBe(1);

    const done = await pollUntil(async () => {
      const poll = await api.result(checkId);
      expect([200, 202]).toContain(poll.statusCode);
      return poll.statusCode === 200 ? poll.json() : null;
    });
    expect(done).toMatchObject({ check_id: checkId, status: 'completed', billing: { charged_usd: 0.5, replay: false } });
    expect((await api.result(checkId)).json().billing.replay).toBe(true);
    expect((await api.balance()).balance_usd).toBe(0.5);
    expect(await api.usageRows()).toHaveLength(1);

    const stranger = await quick.account({ depositUsd: 1 });
    expect((await client(stranger.apiKey, () => quick).result(checkId)).statusCode).toBe(404);
    expect((await api.result('0193a000-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await api.result('not-a-check')).statusCode).toBe(404);
  });
});

describe("a subgroup's default alert_min_level (operator verb kyt alert-level)", () => {
  const TOKEN: Address = '0x00000000000000000000000000000000000f10a7';

  async function raisedFor(apiKey: string, txHash: string) {
    const response = await client(apiKey).submit({ chain: 'ETH', tx_hash: txHash });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const types: string[] = [];
    for await (const event of svc.services.store.read(`transfer-${body.check_id}`)) types.push(event.type);
    return { alerts: body.policy_result.alerts as { riskLevel: string }[], raised: types.includes('WebhookEventRaised') };
  }

  it('a Medium alert is raised under either setting: the subgroup level is only the default of new subscriptions', async () => {
    await chain.installToken(TOKEN, []);
    const { userId, apiKey } = await svc.account({ depositUsd: 2 });
    const subgroupId = (await svc.services.repositories.accounts.get(userId))!.memberships[0]!.subgroupId;
    let lookalikes = 0;
    const poison = () =>
      chain.zeroValueTransferFrom(
        TOKEN,
        devAccount(3).address,
        devAccount(4).address,
        madeUpEvmAddress(`kyt-input:lookalike-${lookalikes++}`) as Address,
      );

    expect(await raisedFor(apiKey, await poison())).toEqual({ alerts: [expect.objectContaining({ riskLevel: 'Medium' })], raised: true });
    const set = await runVerb(svc.services, parseArgs(['kyt', 'alert-level', '--subgroup', subgroupId, '--level', 'high']));
    expect(set.output).toEqual({ subgroup_id: subgroupId, alert_min_level: 'High' });
    // Each subscription filters by its own alert_min_level (test/e2e/webhooks-alert-level.e2e.test.ts).
    expect(await raisedFor(apiKey, await poison())).toEqual({ alerts: [expect.objectContaining({ riskLevel: 'Medium' })], raised: true });
    expect((await runVerb(svc.services, parseArgs(['kyt', 'alert-level', '--subgroup', subgroupId]))).output).toMatchObject({
      alert_min_level: 'High',
    });
  });
});

describe('chain endpoints, validated at start', () => {
  it('a malformed endpoint stops the start with a message naming the variable', () => {
    expect(() => loadConfig({ CHAIN_RPC_ETH: 'localhost:8545' })).toThrow(/CHAIN_RPC_ETH/);
    expect(() => loadConfig({ CHAIN_RPC_TRON: 'ftp://tron.example' })).toThrow(/CHAIN_RPC_TRON/);
  });

  it('each configured endpoint is asked who it is: answering, another chain, or down', async () => {
    const tron = await startJsonServer(() => ({ json: { blockID: '00', block_header: { raw_data: { number: 49152001 } } } }));
    try {
      const lines: string[] = [];
      const config = loadConfig({
        CHAIN_RPC_ETH: anvil.rpcUrl,
        CHAIN_RPC_BSC: `http://127.0.0.1:${await freePort()}`,
        CHAIN_RPC_TRON: tron.url,
      });
      await probeChainEndpoints(config, (line) => lines.push(line));
      expect(lines.sort()).toEqual([
        expect.stringMatching(/^transfer check: BSC endpoint does not answer/),
        "transfer check: ETH endpoint answers chain id 31337, not ETH mainnet's 1 (a test chain?)",
        'transfer check: TRON endpoint at block 49152001',
      ]);
    } finally {
      await tron.close();
    }
  });
});

describe('TRON through its HTTP API (recorded responses)', () => {
  it('a TRX transfer: one native leg in base58, valued at the snapshot TRX price of its day; the id in any case and prefix', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const bare = tronTxId(RECORDED_TRON.trx).slice(2).toUpperCase();
    const response = await client(apiKey).submit({ chain: 'tron', tx_hash: bare });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ chain: 'TRON', tx_hash: tronTxId(RECORDED_TRON.trx), billing: { charged_usd: 0.5 } });
    expect(body.composite_result).toMatchObject({ total_usd: 2500 * 0.066, prices: [{ source: 'snapshot-2025-01', as_of: '2023-02-01' }] });
    expect(body.composite_result.legs).toEqual([
      expect.objectContaining({ kind: 'native', symbol: 'TRX', amount: '2500000000', usd_value: 165, from: expect.stringMatching(/^T/) }),
    ]);
  });

  it('a TRC-20 transfer of a token nobody prices: decoded, unvalued, the senders weighed equally', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const body = (await client(apiKey).submit({ chain: 'TRON', tx_hash: tronTxId(RECORDED_TRON.trc20) })).json();
    expect(body.composite_result).toMatchObject({ pricing: 'none', weighting: 'equal', total_usd: 0 });
    expect(body.composite_result.legs).toEqual([
      expect.objectContaining({ kind: 'token', symbol: 'KYTT', decimals: 6, amount: '1250000000', usd_value: null }),
    ]);
    expect(body.policy_result.alerts).toEqual([]);
  });
});
