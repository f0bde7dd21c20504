import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Origin of funds on a real chain: an exploiter (labelled in the test's own GraphSense TagPack, a
 * made-up address) sends 20 ETH to a fresh address, which passes 10 ETH on. The service indexes the
 * anvil chain with the full check's block ingester; the transfer check of the second transaction
 * traces the sender's inflow back to the exploiter and raises an Indirect alert.
 */
const party = (name: string) => madeUpEvmAddress(`kyt-indirect:${name}`) as Address;
const EXPLOITER = party('exploiter');
const MIDDLE = party('middle');
const RECIPIENT = party('recipient');
const ETH_SNAPSHOT_USD = 3300;

let anvil: Anvil;
let sources: string;
let svc: TestService;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  sources = await mkdtemp(join(tmpdir(), 'svc-kyt-indirect-'));
  await mkdir(join(sources, 'graphsense-tagpacks'));
  const pack = {
    title: 'Transfer check test tags',
    creator: 'Fixture',
    lastmod: '2026-11-01',
    confidence: 'service_data',
    tags: [
      {
        address: EXPLOITER,
        currency: 'ETH',
        abuse: 'service_hack',
        label: 'example bridge exploiter',
        source: 'https://example.org/exploit',
      },
    ],
  };
  await writeFile(join(sources, 'graphsense-tagpacks', 'kyt-indirect-test.json'), JSON.stringify(pack, null, 2));
  svc = await startTestService({
    SVC_SOURCES_DIR: sources,
    CHAIN_RPC_ETH: anvil.rpcUrl,
    SVC_INGEST_RPC_URL: anvil.rpcUrl,
    SVC_INGEST_POLL_MS: '3600000',
  });
}, 60_000);
afterAll(async () => {
  await svc?.close();
  await anvil?.stop();
  if (sources) await rm(sources, { recursive: true, force: true });
});

describe('indirect exposure of a sender, traced on the indexed chain', () => {
  it('funds one hop from an exploiter raise Origin of funds / Indirect (High: 100 % and $33,000 over 5 % and $20,000)', async () => {
    const chain = transferChain(anvil.rpcUrl);
    await chain.sendNative(EXPLOITER, MIDDLE, '20');
    const txHash = await chain.sendNative(MIDDLE, RECIPIENT, '10');
    await svc.services.fullCheck.ingester!.syncOnce();
    await svc.services.fullCheck.whenCaughtUp();

    const { apiKey } = await svc.account({ depositUsd: 1 });
    const response = await svc.app.inject({
      method: 'POST',
      url: '/v2/check-transfer',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: { chain: 'ETH', tx_hash: txHash },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.composite_result.senders).toEqual([
      expect.objectContaining({
        address: MIDDLE.toLowerCase(),
        data_available: false,
        graph: 'analysed',
        risk_level: 'high',
        indirect_categories: [
          {
            slug: 'stolen_funds',
            share: 100,
            hops: 1,
            usd_value: 10 * ETH_SNAPSHOT_USD,
            paths: [
              {
                hops: 1,
                addresses: [EXPLOITER.toLowerCase(), MIDDLE.toLowerCase()],
                usd: 20 * ETH_SNAPSHOT_USD,
                share_pct: 100,
                label: 'example bridge exploiter',
                source: 'graphsense',
                usd_estimated: false,
              },
            ],
          },
        ],
      }),
    ]);
    expect(body.policy_result.alerts).toEqual([
      {
        category: 'Hack / exploit / theft proceeds',
        riskLevel: 'High',
        ruleType: 'Origin of funds / Indirect',
        actualShare: 100,
        thresholdShare: 5,
        thresholdValue: 20_000,
        entityName: `Sender ${MIDDLE.toLowerCase()} (exposed to Hack / exploit / theft proceeds)`,
        entityAddress: MIDDLE.toLowerCase(),
        direction: 'incoming',
        entityScore: 0,
      },
    ]);
    expect(body.policy_result.explanations).toEqual([
      expect.objectContaining({ rule_id: 'I2', exposure_usd: 10 * ETH_SNAPSHOT_USD, senders_total: 1, senders: [MIDDLE.toLowerCase()] }),
    ]);
  });
});
