import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { devAccount, startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { bodyOf } from '../support/openapi/typed-response.js';
import { pollUntil } from '../support/polling.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The transfer check as a new user tries it, against a local anvil chain configured as the ETH RPC.
 * The sanctioned sender is an OFAC-listed address read at run time from SVC_SOURCES_DIR (../shared/data
 * by default): impersonated and funded on anvil, it sends a real transfer. The service imports only the
 * OFAC list (a temporary directory linking to that one folder), so the suite starts in a second.
 * Bodies are typed by the served OpenAPI document (test/support/openapi/v2.d.ts).
 */
const sourcesDir = resolve(process.env.SVC_SOURCES_DIR || '../shared/data');
const OFAC_FOLDER = 'ofac-ultrasoundmoney-eth';
const available = existsSync(join(sourcesDir, OFAC_FOLDER, 'data.csv'));

/** The mainnet USDC contract address: the test token is installed there, so the snapshot prices it at 1 USD. */
const USDC: Address = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ETH_SNAPSHOT_USD = 3300;

function firstOfacEth(): { address: Address; name: string } {
  const [, line] = readFileSync(join(sourcesDir, OFAC_FOLDER, 'data.csv'), 'utf8').split(/\r?\n/);
  const [address, name] = line!.split(',');
  return { address: address as Address, name: name!.replace(/"/g, '') };
}

let anvil: Anvil;
let linked: string;
let svc: TestService;
let key: string;
let chain: ReturnType<typeof transferChain>;
let receiver: Receiver;

const recipient = (seed: string) => madeUpEvmAddress(`transfer-check:${seed}`) as Address;

async function check(txHash: string, apiKey = key) {
  const response = await svc.app.inject({
    method: 'POST',
    url: '/v2/check-transfer',
    headers: { authorization: `Bearer ${apiKey}` },
    payload: { chain: 'ETH', tx_hash: txHash },
  });
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf(response, 'post', '/v2/check-transfer', 200);
}

const balanceUsd = async () =>
  (await svc.app.inject({ method: 'GET', url: '/v2/balance', headers: { authorization: `Bearer ${key}` } })).json().balance_usd as number;

describe.skipIf(!available)(`transfer check on a local anvil chain (OFAC list from ${sourcesDir})`, () => {
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 });
    chain = transferChain(anvil.rpcUrl);
    linked = await mkdtemp(join(tmpdir(), 'svc-kyt-sources-'));
    await symlink(join(sourcesDir, OFAC_FOLDER), join(linked, OFAC_FOLDER));
    svc = await startTestService({ SVC_SOURCES_DIR: linked, CHAIN_RPC_ETH: anvil.rpcUrl, WEBHOOK_ALLOW_LOCAL: '1' });
    ({ apiKey: key } = await svc.account({ depositUsd: 10 }));
    // The customer's webhook, subscribed as a user would: every transfer alert of Medium and above.
    receiver = await startReceiver();
    const subscribed = await svc.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { authorization: `Bearer ${key}` },
      payload: { url: receiver.url, event_types: ['tx.policy.alert.triggered'] },
    });
    expect(subscribed.statusCode).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
    await anvil?.stop();
    if (linked) await rm(linked, { recursive: true, force: true });
  });

  it('a transfer from an OFAC-listed address is a Severe sanctions alert under Direct exposure, charged once across submit and poll', async () => {
    const sanctioned = firstOfacEth();
    const txHash = await chain.sendNative(sanctioned.address, recipient('sanctions'), '0.5');
    const before = await balanceUsd();

    const body = await check(txHash);
    expect(body.policy_result.alerts).toEqual([
      {
        category: 'Sanctioned entity / address',
        riskLevel: 'Severe',
        ruleType: 'Direct exposure',
        actualShare: 100,
        thresholdShare: 0,
        thresholdValue: 0,
        entityName: sanctioned.name,
        entityAddress: sanctioned.address.toLowerCase(),
        direction: 'incoming',
        entityScore: 0,
      },
    ]);
    expect(body.policy_result).toMatchObject({
      policy: 'standard',
      worst_level: 'Severe',
      recommended_action: 'block',
      explanations: [{ rule_id: 'D1' }],
    });
    expect(body.composite_result).toMatchObject({
      total_usd: 0.5 * ETH_SNAPSHOT_USD,
      weighting: 'usd',
      pricing: 'full',
      prices: [{ source: 'snapshot-2025-01', as_of: '2025-01-01' }],
    });
    expect(body.composite_result.legs).toEqual([
      expect.objectContaining({ kind: 'native', symbol: 'ETH', from: sanctioned.address.toLowerCase(), amount: '500000000000000000' }),
    ]);
    expect(body).toMatchObject({ chain: 'ETH', tx_hash: txHash, billing: { model: 'ledger', charged_usd: 0.5, replay: false } });

    const poll = await svc.app.inject({
      method: 'GET',
      url: `/v2/transfer/${body.check_id}/result`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(poll.statusCode).toBe(200);
    expect(bodyOf(poll, 'get', '/v2/transfer/{check_id}/result', 200)).toMatchObject({
      policy_result: body.policy_result,
      billing: { replay: true },
    });
    expect(await balanceUsd()).toBeCloseTo(before - 0.5, 6);
    // Read back as a stored verdict (GET /v2/verdicts/{id}): the result and its receipt, free.
    const stored = await pollUntil(async () => {
      const response = await svc.app.inject({
        method: 'GET',
        url: `/v2/verdicts/${body.check_id}`,
        headers: { authorization: `Bearer ${key}` },
      });
      return response.statusCode === 200 ? bodyOf(response, 'get', '/v2/verdicts/{verdict_id}', 200) : null;
    });
    expect(stored).toMatchObject({
      kind: 'check_transfer',
      receipt: body.receipt,
      receipt_note: null,
      verdict: { policy_result: body.policy_result },
    });
    expect(await balanceUsd()).toBeCloseTo(before - 0.5, 6);

    // The webhook contract: tx.policy.alert.triggered with the spec's payload, beside the result.
    const events = [];
    for await (const event of svc.services.store.read(`transfer-${body.check_id}`)) events.push(event);
    const raised = events.find((e) => e.type === 'WebhookEventRaised')!.data as { event_type: string; payload: Record<string, unknown> };
    expect(raised.event_type).toBe('tx.policy.alert.triggered');
    expect(raised.payload).toMatchObject({
      check_id: body.check_id,
      tx_hash: txHash,
      chain: 'ETH',
      worst_level: 'Severe',
      alerts: body.policy_result.alerts,
    });

    // …delivered to the customer's endpoint in the spec's envelope.
    const [delivered] = await receiver.waitFor(1);
    expect(delivered!.json).toMatchObject({
      schema_version: 1,
      event_type: 'tx.policy.alert.triggered',
      attempt: 1,
      payload: raised.payload,
    });
    expect(delivered!.headers['x-service-event']).toBe('tx.policy.alert.triggered');
  });

  it('a clean transfer yields no alert (and says its sender is unknown, not clean)', async () => {
    const txHash = await chain.sendNative(devAccount(1).address, recipient('clean'), '1');
    const body = await check(txHash);
    expect(body.policy_result).toMatchObject({ alerts: [], alert_count: 0, worst_level: null, recommended_action: 'accept' });
    expect(body.composite_result).toMatchObject({ unknown_share: 100, total_usd: ETH_SNAPSHOT_USD });
    expect(body.composite_result.senders).toEqual([
      expect.objectContaining({ address: devAccount(1).address.toLowerCase(), data_available: false, share: 100 }),
    ]);
  });

  it('an ERC-20 transfer decodes to one token leg with its symbol, decimals and USD value', async () => {
    const holder = devAccount(2).address;
    await chain.installToken(USDC, [{ to: holder, amount: 1_000_000_000n }]);
    const txHash = await chain.sendToken(USDC, holder, recipient('erc20'), 250_000_000n);
    const body = await check(txHash);
    expect(body.composite_result.legs).toEqual([
      {
        kind: 'token',
        token: USDC,
        symbol: 'USDC',
        decimals: 6,
        from: holder.toLowerCase(),
        to: recipient('erc20').toLowerCase(),
        amount: '250000000',
        usd_value: 250,
        log_index: 0,
      },
    ]);
    expect(body.composite_result.total_usd).toBe(250);
  });

  it('one transaction moving tokens from several senders through a contract weighs each sender by USD', async () => {
    const sanctioned = firstOfacEth().address;
    const clean = devAccount(5).address;
    await chain.installToken(USDC, [
      { to: sanctioned, amount: 100_000_000n },
      { to: clean, amount: 300_000_000n },
    ]);
    const txHash = await chain.collect(
      USDC,
      [
        { from: sanctioned, amount: 100_000_000n },
        { from: clean, amount: 300_000_000n },
      ],
      recipient('collected'),
    );
    const body = await check(txHash);
    expect(body.composite_result.legs.map((l) => [l.from, l.usd_value])).toEqual([
      [sanctioned.toLowerCase(), 100],
      [clean.toLowerCase(), 300],
    ]);
    expect(body.composite_result.senders.map((s) => [s.address, s.share])).toEqual([
      [clean.toLowerCase(), 75],
      [sanctioned.toLowerCase(), 25],
    ]);
    expect(body.policy_result.alerts).toEqual([
      expect.objectContaining({
        riskLevel: 'Severe',
        ruleType: 'Direct exposure',
        actualShare: 25,
        entityAddress: sanctioned.toLowerCase(),
      }),
    ]);
  });

  it('a zero-value transferFrom signed by someone else is the address-poisoning Pattern', async () => {
    const signer = devAccount(6).address;
    const txHash = await chain.zeroValueTransferFrom(USDC, signer, devAccount(7).address, recipient('lookalike'));
    const body = await check(txHash);
    expect(body.policy_result.alerts).toEqual([
      expect.objectContaining({
        ruleType: 'Pattern',
        category: 'Poisoning / dust attacker',
        riskLevel: 'Medium',
        entityAddress: signer.toLowerCase(),
        actualShare: 0,
      }),
    ]);
  });
});
