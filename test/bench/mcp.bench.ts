import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { X402_NETWORKS } from '../../domain/x402/x402-networks.js';
import { createPayingProxy } from '../../infra/cli/mcp-proxy.js';
import { devAccount, startAnvil } from '../support/chain/anvil.js';
import { installTestUsdc } from '../support/chain/test-usdc.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';

/**
 * bench:mcp — the paid round trip of the light screen through the MCP door against the REST x402 route,
 * in the same run on the same service (its own process, embedded default, settling every call on anvil):
 * REST = the real @x402/fetch client (402, sign, paid GET); MCP = an MCP client through the paying proxy
 * (the `mcp-proxy` verb's core, in memory) to `/mcp` (tools/call, challenge, sign, paid tools/call).
 * Calls alternate between the two doors so both see the same chain and machine load. Prints the figures
 * and the MCP/REST ratio; docs/benchmarks.md is updated by hand.
 */
const CALLS = Number(process.env.BENCH_CALLS ?? 100);
const WARM_UP = 10;
const NETWORK = X402_NETWORKS['base-sepolia'];
let serial = 0;
const target = () => '0x' + (++serial).toString(16).padStart(40, '0');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
};

async function main() {
  const anvil = await startAnvil({ chainId: NETWORK.chainId });
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-mcp-'));
  const [restPayer, mcpPayer] = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())];
  await installTestUsdc(
    anvil.rpcUrl,
    NETWORK.asset,
    [restPayer, mcpPayer].map((p) => ({ to: p.address, amount: 1_000_000_000n })),
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
      SVC_SOURCES_DIR: '',
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
  const upstream = new Client({ name: 'bench', version: '1.0.0' });
  const agent = new Client({ name: 'bench-agent', version: '1.0.0' });
  try {
    const paying = wrapFetchWithPayment(fetch, new x402Client().register('eip155:*', new ExactEvmScheme(restPayer)));
    await upstream.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const proxy = createPayingProxy({ upstream, wallet: mcpPayer, spendCapMicros: 1_000_000_000 });
    const [agentSide, proxySide] = InMemoryTransport.createLinkedPair();
    await proxy.server.connect(proxySide);
    await agent.connect(agentSide);

    const rest = async () => {
      const started = performance.now();
      const response = await paying(`${base}/screen/ETH/${target()}`);
      if (response.status !== 200) throw new Error(`REST paid call answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      return performance.now() - started;
    };
    const mcp = async () => {
      const started = performance.now();
      const result = (await agent.callTool({ name: 'screen_address', arguments: { chain: 'ETH', address: target() } })) as CallToolResult;
      if (result.isError || !result._meta?.['x402/payment-response'])
        throw new Error(`MCP paid call failed: ${JSON.stringify(result.structuredContent ?? result.content)}`);
      return performance.now() - started;
    };

    for (let i = 0; i < WARM_UP; i++) {
      await rest();
      await mcp();
    }
    const samples = { rest: [] as number[], mcp: [] as number[] };
    for (let i = 0; i < CALLS; i++) {
      // alternate which door goes first, so neither always meets the chain right after the other
      if (i % 2 === 0) {
        samples.rest.push(await rest());
        samples.mcp.push(await mcp());
      } else {
        samples.mcp.push(await mcp());
        samples.rest.push(await rest());
      }
    }
    const [r, m] = [summary(samples.rest), summary(samples.mcp)];
    const fmt = (ms: number) => ms.toFixed(1);
    const table = [
      `Measured by \`npm run bench:mcp\` (${new Date().toISOString().slice(0, 10)}, ${CALLS} paid light screens per door after ${WARM_UP} warm-up calls each, alternating doors, one client at a time, the service in its own process on the same 2-core machine, settling every call on anvil with automine; load average ${loadavg()[0]!.toFixed(2)}):`,
      '',
      '| door | calls | p50 ms | p95 ms | mean ms |',
      '|---|---|---|---|---|',
      `| REST x402 (@x402/fetch: 402, sign, paid GET) | ${r.n} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.mean)} |`,
      `| MCP (paying proxy: tools/call, challenge, sign, paid tools/call) | ${m.n} | ${fmt(m.p50)} | ${fmt(m.p95)} | ${fmt(m.mean)} |`,
      '',
      `MCP / REST: ${(m.p50 / r.p50).toFixed(2)}× at p50, ${(m.mean / r.mean).toFixed(2)}× on the mean.`,
    ].join('\n');
    process.stdout.write(`${table}\n`);
  } finally {
    await agent.close().catch(() => undefined);
    await upstream.close().catch(() => undefined);
    await stop(service.child);
    await anvil.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
