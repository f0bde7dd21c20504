import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch';
import { formatUnits, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { X402_NETWORKS } from '../../domain/x402/x402-networks.js';
import { devAccount, startAnvil } from '../support/chain/anvil.js';
import { installTestUsdc, usdcBalance } from '../support/chain/test-usdc.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';

/**
 * `npm run demo:x402 [-- <address>]`: a local Base Sepolia (anvil with chain id 84532 and a test EIP-3009
 * token installed at the real Base Sepolia USDC address), the whole service configured for it exactly as
 * it would be for Base Sepolia, and one screen paid with the real @x402/fetch client. Prints the quote,
 * the verdict and the settlement transaction. Nothing leaves 127.0.0.1.
 */
const NETWORK = X402_NETWORKS['base-sepolia'];
const TARGET = process.argv[2] ?? '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';
const SOURCES = process.env.SVC_SOURCES_DIR ?? resolve('../shared/data');
const say = (line = '') => process.stdout.write(`${line}\n`);
const usd = (units: bigint) => `${formatUnits(units, NETWORK.decimals)} USDC`;

async function main() {
  const anvil = await startAnvil({ chainId: NETWORK.chainId });
  const dataDir = await mkdtemp(join(tmpdir(), 'x402-demo-'));
  let service: Awaited<ReturnType<typeof spawnTsx>> | null = null;
  try {
    const payer = privateKeyToAccount(generatePrivateKey());
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    await installTestUsdc(anvil.rpcUrl, NETWORK.asset, [{ to: payer.address, amount: 5_000_000n }]);
    say(`chain      anvil ${anvil.rpcUrl} (chain id ${NETWORK.chainId}), test USDC at ${NETWORK.asset}`);
    say(`payer      ${payer.address} holds ${usd(await usdcBalance(anvil.rpcUrl, NETWORK.asset, payer.address))}`);
    say(`pay to     ${payTo}`);

    const [port, x402Port] = [await freePort(), await freePort()];
    const withSources = existsSync(SOURCES);
    say(
      `service    starting${withSources ? ` (importing the data sources of ${SOURCES})` : ' (no data sources: verdicts will say data_available: false)'}…`,
    );
    service = await spawnTsx(
      'infra/main.ts',
      {
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        SVC_SYNC_ON_START: '0',
        SVC_SOURCES_DIR: withSources ? SOURCES : '',
        X402_PORT: String(x402Port),
        X402_NETWORK: 'base-sepolia',
        X402_PAY_TO: payTo,
        X402_RPC_URL: anvil.rpcUrl,
        X402_GAS_WALLET_KEY: toHex(devAccount(1).getHdKey().privateKey!),
        X402_RECEIPT_POLL_MS: '20',
      },
      /x402 channel listening on/,
      600_000,
    );
    const url = `http://127.0.0.1:${x402Port}/screen/ETH/${TARGET}`;

    const quoted = await fetch(url);
    const quote = JSON.parse(Buffer.from(quoted.headers.get('payment-required')!, 'base64').toString()).accepts[0];
    say(`quote      GET ${url} → ${quoted.status}: ${usd(BigInt(quote.amount))} on ${quote.network} to ${quote.payTo}`);

    const client = new x402Client().register('eip155:*', new ExactEvmScheme(payer));
    const started = performance.now();
    const response = await wrapFetchWithPayment(fetch, client)(url);
    const elapsed = Math.round(performance.now() - started);
    const body = (await response.json()) as {
      verdict?: { risk_level: unknown; risk_score: unknown; label: unknown; risk_categories: unknown };
      coverage?: { data_available: unknown; source_count: unknown; label_count: unknown };
    };
    if (response.status !== 200) throw new Error(`the paid call answered ${response.status}: ${JSON.stringify(body)}`);
    const receipt = new x402HTTPClient(client).getPaymentSettleResponse((name) => response.headers.get(name));
    say(`paid call  ${response.status} in ${elapsed} ms (quote, signature, verification, settlement, verdict)`);
    const { verdict, coverage } = body;
    say(
      `verdict    ${JSON.stringify({ risk_level: verdict?.risk_level, risk_score: verdict?.risk_score, label: verdict?.label, risk_categories: verdict?.risk_categories })}`,
    );
    say(
      `coverage   ${JSON.stringify({ data_available: coverage?.data_available, source_count: coverage?.source_count, label_count: coverage?.label_count })}`,
    );
    say(`settlement ${receipt.success ? 'success' : 'FAILED'}: transaction ${receipt.transaction} on ${receipt.network}`);
    say(
      `balances   payer ${usd(await usdcBalance(anvil.rpcUrl, NETWORK.asset, payer.address))}, pay-to ${usd(await usdcBalance(anvil.rpcUrl, NETWORK.asset, payTo))}`,
    );
  } finally {
    if (service) await stop(service.child);
    await anvil.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
