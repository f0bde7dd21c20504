import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createWalletClient, http, parseAbi, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';
import { devAccount, startAnvil, type Anvil } from '../support/chain/anvil.js';
import { compileContract } from '../support/chain/solc-compile.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { pollUntil } from '../support/polling.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * The block ingester on a real local chain (anvil): an ERC-20 compiled with solc-js and deployed, funds
 * moved through several hops from an address the test's own data set labels as exploit proceeds, the
 * blocks indexed over JSON-RPC, and a full check that finds the exposure with its USD share and path.
 * The graph survives a restart (it is on disk), and the ingester resumes after its last block.
 *
 *   r (stolen funds) →1000→ a →600→ b →500→ d ←500← e ←800← x (exchange);  c →400→ b
 */

const party = (name: string) => madeUpEvmAddress(`anvil-check:${name}`) as Address;
const [r, a, b, c, d, e, x, payer, payee] = ['r', 'a', 'b', 'c', 'd', 'e', 'x', 'payer', 'payee'].map(party) as [
  Address,
  Address,
  Address,
  Address,
  Address,
  Address,
  Address,
  Address,
  Address,
];
const UNIT = 1_000_000n; // 6 decimals
const tokenAbi = parseAbi(['function mint(address to, uint256 value)']);

let anvil: Anvil;
let token: Address;
let sources: string;
let dataDir: string;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  const transport = http(anvil.rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ transport });
  const deployer = createWalletClient({ account: devAccount(0), transport });
  const bytecode = await compileContract(join(dirname(fileURLToPath(import.meta.url)), '../support/chain/TestUSDC.sol'), 'TestUSDC');
  const deployed = await publicClient.waitForTransactionReceipt({
    hash: await deployer.deployContract({ abi: tokenAbi, bytecode, chain: null }),
    pollingInterval: 10,
  });
  token = deployed.contractAddress!;
  for (const [holder, amount] of [
    [r, 1000n],
    [c, 400n],
    [x, 800n],
  ] as const) {
    await publicClient.waitForTransactionReceipt({
      hash: await deployer.writeContract({
        address: token,
        abi: tokenAbi,
        functionName: 'mint',
        args: [holder, amount * UNIT],
        chain: null,
      }),
      pollingInterval: 10,
    });
  }
  const chain = transferChain(anvil.rpcUrl);
  for (const [from, to, amount] of [
    [r, a, 1000n],
    [a, b, 600n],
    [c, b, 400n],
    [b, d, 500n],
    [x, e, 800n],
    [e, d, 500n],
  ] as const) {
    await chain.sendToken(token, from, to, amount * UNIT);
  }
  await chain.sendNative(payer, payee, '2');

  sources = await mkdtemp(join(tmpdir(), 'svc-anvil-sources-'));
  await mkdir(join(sources, 'graphsense-tagpacks'));
  // The check fails closed without a sanctions list: the minimal made-up OFAC list beside the tags.
  await cp(join(MINIMAL_SANCTIONS_DIR, 'ofac-sdn-official'), join(sources, 'ofac-sdn-official'), { recursive: true });
  await writeFile(
    join(sources, 'graphsense-tagpacks', 'anvil-test.json'),
    JSON.stringify({
      title: 'anvil test tags',
      creator: 'Fixture',
      lastmod: '2026-01-01',
      confidence: 'service_data',
      tags: [
        {
          address: r.toLowerCase(),
          currency: 'ETH',
          abuse: 'service_hack',
          label: 'test exploiter',
          source: 'https://example.org/exploit',
        },
        { address: x.toLowerCase(), currency: 'ETH', category: 'exchange', label: 'test exchange', source: 'https://example.org/exchange' },
      ],
    }),
  );
  dataDir = await mkdtemp(join(tmpdir(), 'svc-anvil-data-'));
}, 60_000);

afterAll(async () => {
  await anvil?.stop();
  await rm(sources, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

async function startService(): Promise<TestService> {
  return startTestService(
    {
      SVC_SOURCES_DIR: sources,
      SVC_INGEST_RPC_URL: anvil.rpcUrl,
      SVC_INGEST_NETWORK: 'ETH',
      SVC_INGEST_POLL_MS: '20',
      SVC_INGEST_BATCH_BLOCKS: '5',
      SVC_PRICE_PINS: JSON.stringify([{ network: 'ETH', token: token.toLowerCase(), symbol: 'TUSD', usd: 1 }]),
    },
    dataDir,
  );
}

async function caughtUp(service: TestService): Promise<void> {
  const head = Number(await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlockNumber());
  await pollUntil(async () => (service.services.fullCheck.ingester!.lastBlock >= head ? true : null));
  // Published is not folded yet: the graph pipeline folds what the ingester put on the bus.
  await service.services.fullCheck.whenCaughtUp();
}

describe('full check on blocks indexed from a local chain', () => {
  it('indexes native and ERC-20 transfers, and traces the exploit proceeds to d with the right USD share and path', async () => {
    const service = await startService();
    try {
      await caughtUp(service);
      const transfers = service.services.fullCheck.graph;
      expect(await transfers.activity(d, 'ETH')).toMatchObject({ incoming: { transfers: 2, usdMicros: 1000e6, counterparties: 2 } });
      // Mints are not transfers between holders; the native 2 ETH is valued at the snapshot's ETH level.
      expect((await transfers.activity(r, 'ETH'))?.incoming.transfers).toBe(0);
      expect((await transfers.activity(payee, 'ETH'))?.incoming.usdMicros).toBeGreaterThan(1000e6);

      const user = await service.account({ depositUsd: 2 });
      const headers = { authorization: `Bearer ${user.apiKey}` };
      const { result_url } = (
        await service.app.inject({ method: 'POST', url: '/v2/check-address', headers, payload: { address: d, network: 'ETH' } })
      ).json();
      const result = await pollUntil(async () => {
        const response = await service.app.inject({ method: 'GET', url: result_url, headers });
        return response.statusCode === 202 ? null : response;
      });
      const body = result.json();
      expect(body).toMatchObject({ decision: 'review', verdict: { risk_level: 'medium', tier3_applied: true } });
      const stolen = body.evidence.find((row: { slug: string }) => row.slug === 'stolen_funds');
      expect(stolen).toMatchObject({ share_pct: 30, usd: 300, hops: 3 });
      expect(stolen.paths[0]).toMatchObject({ addresses: [r, a, b, d].map((v) => v.toLowerCase()), usd: 300, label: 'test exploiter' });
      expect(body.exposure.source_of_funds.categories.find((row: { slug: string }) => row.slug === 'exchange')).toMatchObject({
        share_pct: 50,
        usd: 500,
      });
      expect(body.coverage.transfer_data[0]).toMatchObject({ name: 'rpc:ETH', transfers: 7 });
    } finally {
      await service.close();
    }
  });

  it('resumes after a restart from the blocks it recorded, without indexing them twice', async () => {
    const service = await startService();
    try {
      expect(await service.services.fullCheck.graph.size('ETH')).toBe(7);
      await caughtUp(service);
      expect(await service.services.fullCheck.graph.size('ETH')).toBe(7);
    } finally {
      await service.close();
    }
  });
});
