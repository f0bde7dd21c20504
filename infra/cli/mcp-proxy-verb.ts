import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fail } from '../../domain/shared/errors.js';
import { usdToMicros } from '../../domain/shared/money.js';
import { flag, numberFlag, requiredFlag, type ParsedArgs } from './args.js';
import { createPayingProxy } from './mcp-proxy.js';
import { walletFromKeyFile } from './x402-wallet.js';

/**
 * `mcp-proxy --wallet-key-file <file> --spend-cap-usd <usd> [--url <x402_url>/mcp]`: a stdio MCP server
 * that forwards to the service's `/mcp` and pays its x402 challenges from the wallet, up to the cap.
 * Lines about payments go to stderr; stdout carries only MCP. Returns when the MCP client hangs up.
 */
export async function runMcpProxy(
  args: ParsedArgs,
  log: (line: string) => void = (line) => process.stderr.write(`mcp-proxy: ${line}\n`),
): Promise<number> {
  const url = flag(args, 'url') ?? process.env.X402_MCP_URL ?? `http://127.0.0.1:${process.env.X402_PORT ?? '8402'}/mcp`;
  const cap = numberFlag(args, 'spend-cap-usd');
  if (cap === undefined) throw fail('bad_request', '--spend-cap-usd is required (the most this proxy may pay, in USD)');
  const wallet = await walletFromKeyFile(requiredFlag(args, 'wallet-key-file'));

  const upstream = new Client({ name: 'risk-screening-x402-proxy', version: '1.0.0' });
  await upstream.connect(new StreamableHTTPClientTransport(new URL(url)));
  const { server } = createPayingProxy({ upstream, wallet, spendCapMicros: usdToMicros(cap), log });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  log(`forwarding to ${url}, paying from ${wallet.address}, spend cap ${cap} USD`);
  await closed;
  await upstream.close();
  return 0;
}
