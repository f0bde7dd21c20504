import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { X402_NETWORKS } from '../../domain/x402/x402-networks.js';
import { devAccount, startAnvil } from '../support/chain/anvil.js';
import { installTestUsdc } from '../support/chain/test-usdc.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { updateReadme } from '../support/readme-figures.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';

/**
 * bench:x402 — paid round trips of GET /screen/{chain}/{address} with the real @x402/fetch client against the
 * real service (its own process, embedded default, fsync on), settling on a local anvil chain. Measures:
 * the whole round trip as a client lives it (402 quote, signature, paid request with verification,
 * reservation, on-chain checks, settlement with its receipt, verdict), the paid request alone (a proof
 * signed beforehand), and both under concurrency. With --write-readme, writes the table into docs/benchmarks.md (bench:x402 markers).
 */
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const NETWORK = X402_NETWORKS['base-sepolia'];
const target = (i: number) => '0x' + (i + 1).toString(16).padStart(40, '0');

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

async function main() {
  const anvil = await startAnvil({ chainId: NETWORK.chainId });
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-x402-'));
  const payers = Array.from({ length: CONCURRENCY }, () => privateKeyToAccount(generatePrivateKey()));
  await installTestUsdc(
    anvil.rpcUrl,
    NETWORK.asset,
    payers.map((p) => ({ to: p.address, amount: 1_000_000_000n })),
  );
  const [port, x402Port] = [await freePort(), await freePort()];
  const service = await spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'silent',
      SVC_SYNC_ON_START: '0',
      SVC_SOURCES_DIR: MINIMAL_SANCTIONS_DIR, // screening fails closed without a sanctions list
      X402_PORT: String(x402Port),
      X402_PAY_TO: privateKeyToAccount(generatePrivateKey()).address,
      X402_RPC_URL: anvil.rpcUrl,
      X402_GAS_WALLET_KEY: toHex(devAccount(1).getHdKey().privateKey!),
      X402_RECEIPT_POLL_MS: '5',
      X402_PAID_CALLS_PER_MINUTE: '1000000',
      X402_FREE_CALLS_PER_MINUTE: '1000000',
    },
    /x402 channel listening on/,
  );
  const base = `http://127.0.0.1:${x402Port}`;
  try {
    const clients = payers.map((payer) => new x402Client().register('eip155:*', new ExactEvmScheme(payer)));
    let next = 0;

    /** The client's whole round trip. */
    const roundTrip = async (client: x402Client) => {
      const started = performance.now();
      const response = await wrapFetchWithPayment(fetch, client)(`${base}/screen/ETH/${target(next++)}`);
      if (response.status !== 200) throw new Error(`paid call answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      return performance.now() - started;
    };
    /** The paid request alone: a proof signed for a fresh quote beforehand. */
    const signProof = async (client: x402Client) => {
      const path = `/screen/ETH/${target(next++)}`;
      const http = new x402HTTPClient(client);
      const quoted = await fetch(`${base}${path}`);
      const proof = http.encodePaymentSignatureHeader(
        await http.createPaymentPayload(http.getPaymentRequiredResponse((name) => quoted.headers.get(name), {})),
      );
      return { path, proof };
    };
    const paidOnly = async ({ path, proof }: { path: string; proof: Record<string, string> }) => {
      const started = performance.now();
      const response = await fetch(`${base}${path}`, { headers: proof });
      if (response.status !== 200) throw new Error(`paid call answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      return performance.now() - started;
    };

    async function run(concurrency: number, calls: number, one: (worker: number) => Promise<number>) {
      const samples: number[] = [];
      let begun = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async (_, worker) => {
          while (begun < calls) {
            begun++;
            samples.push(await one(worker));
          }
        }),
      );
      return summary(samples, performance.now() - started);
    }
    async function runPaidOnly(concurrency: number, calls: number) {
      const proofs = await Promise.all(Array.from({ length: calls }, (_, i) => signProof(clients[i % concurrency]!)));
      let i = 0;
      return run(concurrency, calls, async () => paidOnly(proofs[i++]!));
    }

    await run(1, 20, () => roundTrip(clients[0]!)); // warm-up
    const rows = [
      ['client round trip (402, sign, pay), 1 client', await run(1, CALLS, () => roundTrip(clients[0]!))],
      ['paid request alone (proof signed before), 1 client', await runPaidOnly(1, CALLS)],
      [`client round trip, ${CONCURRENCY} clients`, await run(CONCURRENCY, CALLS, (w) => roundTrip(clients[w]!))],
      [`paid request alone, ${CONCURRENCY} clients`, await runPaidOnly(CONCURRENCY, CALLS)],
    ] as const;
    const fmt = (ms: number) => ms.toFixed(1);
    const table = [
      `Measured by \`npm run bench:x402\` (${new Date().toISOString().slice(0, 10)}, ${CALLS} paid calls per row after 20 warm-up calls, real @x402/fetch 2.27 client and the real service in its own process on the same 2-core machine, embedded default with fsync, local facilitator settling every call on anvil with automine; load average ${loadavg()[0]!.toFixed(2)}):`,
      '',
      '| what | calls | p50 ms | p95 ms | p99 ms | paid calls/s |',
      '|---|---|---|---|---|---|',
      ...rows.map(([name, s]) => `| ${name} | ${s.n} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(s.p99)} | ${s.perSecond} |`),
      '',
      'Each paid call is one on-chain `transferWithAuthorization`, mined before the verdict is served (settle first).',
    ].join('\n');
    process.stdout.write(`${table}\n`);
    await updateReadme('bench:x402', table);
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
