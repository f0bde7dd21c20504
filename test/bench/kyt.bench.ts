import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address, Hash } from 'viem';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { devAccount, startAnvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { updateReadme } from '../support/readme-figures.js';

/**
 * bench:kyt — transfer check latency: POST /v2/check-transfer until its 200 (decode over JSON-RPC,
 * prices, exposure per sender, composite, policy, the charge), against the real service in its own
 * process (embedded default, fsync on) with a local anvil chain as the ETH RPC. Every check is a
 * distinct real transaction made beforehand: native transfers, ERC-20 transfers and transactions with
 * several senders through a contract. With --write-readme, writes the table into docs/benchmarks.md (bench:kyt markers).
 */
const CALLS = Number(process.env.BENCH_CALLS ?? 150);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const KEY = `svc_${'k'.repeat(40)}bnch`;
const USDC: Address = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
function summary(samples: number[], wallMs: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    perSecond: Math.round((sorted.length / wallMs) * 1000),
  };
}

async function transactions(chain: ReturnType<typeof transferChain>, kind: 'native' | 'erc20' | 'multi', count: number): Promise<Hash[]> {
  const hashes: Hash[] = [];
  const to = (i: number) => madeUpEvmAddress(`bench-kyt:${kind}:${i}`) as Address;
  for (let i = 0; i < count; i++) {
    if (kind === 'native') hashes.push(await chain.sendNative(devAccount(1 + (i % 5)).address, to(i), '0.01'));
    else if (kind === 'erc20') hashes.push(await chain.sendToken(USDC, devAccount(1 + (i % 5)).address, to(i), 1_000_000n));
    else
      hashes.push(
        await chain.collect(
          USDC,
          [1, 2, 3].map((n) => ({ from: devAccount(n).address, amount: 1_000_000n })),
          to(i),
        ),
      );
  }
  return hashes;
}

async function main() {
  const anvil = await startAnvil({ chainId: 31337 });
  const chain = transferChain(anvil.rpcUrl);
  await chain.installToken(
    USDC,
    [1, 2, 3, 4, 5].map((n) => ({ to: devAccount(n).address, amount: 10n ** 15n })),
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-kyt-'));
  const port = await freePort();
  const service = await spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      SVC_SYNC_ON_START: '0',
      SVC_SOURCES_DIR: '',
      SVC_DEMO_API_KEY: KEY,
      SVC_DEMO_DEPOSIT_USD: '100000',
      CHAIN_RPC_ETH: anvil.rpcUrl,
    },
    /listening on/,
  );
  const check = async (txHash: Hash) => {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/v2/check-transfer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ chain: 'ETH', tx_hash: txHash }),
    });
    if (response.status !== 200) throw new Error(`check answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
    return performance.now() - started;
  };
  async function run(concurrency: number, hashes: readonly Hash[]) {
    const samples: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < hashes.length) samples.push(await check(hashes[next++]!));
      }),
    );
    return summary(samples, performance.now() - started);
  }
  try {
    const multi = Math.max(10, Math.round(CALLS / 5));
    const [warm, native1, native4, erc20, multiSender] = [
      await transactions(chain, 'native', 20),
      await transactions(chain, 'native', CALLS),
      await transactions(chain, 'native', CALLS),
      await transactions(chain, 'erc20', CALLS),
      await transactions(chain, 'multi', multi),
    ];
    await run(1, warm);
    const rows = [
      ['native transfer, 1 client', await run(1, native1)],
      [`native transfer, ${CONCURRENCY} clients`, await run(CONCURRENCY, native4)],
      ['ERC-20 transfer, 1 client', await run(1, erc20)],
      ['3 senders through a contract, 1 client', await run(1, multiSender)],
    ] as const;
    const fmt = (ms: number) => ms.toFixed(1);
    const table = [
      `Measured by \`npm run bench:kyt\` (${new Date().toISOString().slice(0, 10)}, POST /v2/check-transfer until its 200, each check a distinct real transaction on a local anvil chain as the ETH RPC; the real service in its own process on the same 2-core machine, embedded default with fsync, snapshot prices, charged 0.50 USD each; load average ${loadavg()[0]!.toFixed(2)}):`,
      '',
      '| what | checks | p50 ms | p95 ms | p99 ms | checks/s |',
      '|---|---|---|---|---|---|',
      ...rows.map(([name, s]) => `| ${name} | ${s.n} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(s.p99)} | ${s.perSecond} |`),
      '',
      'Aim: p95 ≤ 2 s. A check is read → decoded (transaction, receipt, block, token metadata) → valued → judged by the processor on the bus, and the POST returns as soon as the outcome is on the check’s stream.',
    ].join('\n');
    process.stdout.write(`${table}\n`);
    await updateReadme('bench:kyt', table);
  } finally {
    await stop(service.child);
    await anvil.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
