import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import { validateDiscoveryExtension, validateDiscoveryExtensionSpec, type DiscoveryExtension } from '@x402/extensions/bazaar';
import type { FastifyInstance } from 'fastify';
import { createPublicClient, http, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentRequirementsSchema } from '../../domain/x402/x402-wire.js';
import { createPayingProxy } from '../../infra/cli/mcp-proxy.js';
import { knownUsdcOf, signPaymentFor } from '../../infra/cli/x402-wallet.js';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { installTestUsdc } from '../support/chain/test-usdc.js';
import { NETWORK, startX402Harness, USDC, type X402Harness } from '../support/x402-harness.js';

/**
 * The agents' door end to end on anvil with the test USDC: the official MCP client on `/mcp`, and the
 * paying proxy (the `mcp-proxy` verb's core) between an x402-unaware MCP client and the service.
 */
let h: X402Harness;
let impatient: FastifyInstance;
let impatientUrl: string;
const opened: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  h = await startX402Harness({ lateEnv: async (anvil) => ({ CHAIN_RPC_BASE: anvil.rpcUrl }) });
  // the same service, with an x402 app that never waits: its paid checks outlive the call at once
  impatient = await buildX402App({ ...h.svc.services.x402.app!, checkWaitMs: 0 });
  await impatient.listen({ port: 0, host: '127.0.0.1' });
  impatientUrl = `http://127.0.0.1:${(impatient.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const client of opened) await client.close();
  await impatient?.close();
  await h?.close();
});

async function mcpClient(base = h.url, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  opened.push(client);
  return client;
}

/** An x402-unaware MCP client talking to the paying proxy in memory, the proxy talking to `/mcp`. */
async function throughProxy(options: { capUsd: number; wallet?: LocalAccount; base?: string }) {
  const proxy = createPayingProxy({
    upstream: await mcpClient(options.base),
    wallet: options.wallet ?? h.payer,
    spendCapMicros: Math.round(options.capUsd * 1e6),
  });
  const [agentSide, proxySide] = InMemoryTransport.createLinkedPair();
  await proxy.server.connect(proxySide);
  const agent = new Client({ name: 'agent', version: '1.0.0' });
  await agent.connect(agentSide);
  opened.push(agent);
  return { agent, spentMicros: proxy.spentMicros };
}

const call = async (client: Client, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;
const structured = (result: CallToolResult) => result.structuredContent as Record<string, any>;
const blockNumber = () => createPublicClient({ transport: http(h.anvil.rpcUrl) }).getBlockNumber();

async function fundedWallet(usdc: bigint): Promise<LocalAccount> {
  const wallet = privateKeyToAccount(generatePrivateKey());
  await installTestUsdc(h.anvil.rpcUrl, USDC, [{ to: wallet.address, amount: usdc }]);
  return wallet;
}

async function settlementsOn(transaction: string) {
  const receipt = await createPublicClient({ transport: http(h.anvil.rpcUrl) }).getTransactionReceipt({ hash: transaction as Hex });
  return receipt.status;
}

describe('the MCP server on the x402 app', () => {
  it('the official MCP client lists the paid and free tools, with their input and output schemas', async () => {
    const { tools } = await (await mcpClient()).listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'screen_address',
        'check_address',
        'check_transfer',
        'get_address_check_result',
        'get_transfer_check_result',
        'list_networks',
      ]),
    );
    const screen = tools.find((tool) => tool.name === 'screen_address')!;
    expect(screen.inputSchema).toMatchObject({
      type: 'object',
      properties: { chain: { type: 'string' }, address: { type: 'string' } },
      required: ['chain', 'address'],
    });
    // real output schemas, from the REST bodies' own: an agent can read what coverage and verdict hold
    const output = screen.outputSchema?.properties as Record<
      string,
      { properties: Record<string, { enum?: string[]; properties?: object }> }
    >;
    expect(output.verdict!.properties.risk_level).toMatchObject({
      anyOf: expect.arrayContaining([expect.objectContaining({ enum: ['none', 'low', 'medium', 'high', 'critical', 'sanctioned'] })]),
    });
    expect(output.coverage!.properties).toHaveProperty('data_available');
    expect(output.coverage!.properties.sanctions!.properties).toHaveProperty('not_checked');
    const check = tools.find((tool) => tool.name === 'check_address')!;
    expect((check.outputSchema?.properties as Record<string, { enum?: string[] }>).decision).toMatchObject({
      enum: ['accept', 'review', 'reject', 'unable'],
    });
    // every address tool says what `none` means; every verdict tool names data_available
    for (const tool of [screen, check]) {
      expect(tool.description).toMatch(/"none" means no risk signal was found, NOT that the address is clean/);
    }
    for (const name of ['screen_address', 'check_address', 'check_transfer', 'get_address_check_result', 'get_transfer_check_result']) {
      const tool = tools.find((t) => t.name === name)!;
      expect(tool.description, name).toMatch(/data_available/);
      expect(tool.description, name).toMatch(/NOT (that the address is )?clean|not "clean"/);
    }
    // the REST rules, advertised (the REST parser enforces them with its codes)
    expect(screen.inputSchema.properties?.address).toMatchObject({ maxLength: 120, pattern: expect.any(String) });
    expect(screen.description).toMatch(/0\.10 USD/);
    expect(tools.find((tool) => tool.name === 'check_transfer')!.inputSchema.required).toEqual(['chain', 'tx_hash']);
  });

  it('an unpaid paid call is the x402 challenge: a fresh quote for the tool price, with Bazaar metadata', async () => {
    const result = await call(await mcpClient(), 'screen_address', { chain: 'ETH', address: madeUpEvmAddress('mcp-quote') });
    expect(result.isError).toBe(true);
    const quote = structured(result);
    expect(quote).toMatchObject({
      x402Version: 2,
      error: 'payment_required',
      resource: { url: `${h.url}/mcp`, mimeType: 'application/json' },
      accepts: [
        { scheme: 'exact', network: NETWORK.caip2, asset: USDC, amount: '100000', payTo: h.payTo, extra: { name: 'USDC', version: '2' } },
      ],
    });
    expect(PaymentRequiredV2Schema.safeParse(quote).success).toBe(true);
    const bazaar = quote.extensions.bazaar as DiscoveryExtension;
    expect(bazaar.info.input).toMatchObject({ type: 'mcp', toolName: 'screen_address', transport: 'streamable-http' });
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>)).toEqual({ valid: true });
    const wrapped = JSON.parse((result.content[0] as { text: string }).text);
    expect(wrapped['x402/error']).toMatchObject({ code: 402, data: { accepts: quote.accepts } });
    const transfer = structured(await call(await mcpClient(), 'check_transfer', { chain: 'BASE', tx_hash: `0x${'cd'.repeat(32)}` }));
    expect(transfer.accepts[0].amount).toBe('500000');
  });

  it('bad inputs get the REST codes before any quote', async () => {
    const client = await mcpClient();
    expect(structured(await call(client, 'screen_address', { chain: 'DOGE', address: madeUpEvmAddress('mcp-bad') })).error.code).toBe(
      'chain_unsupported',
    );
    expect(structured(await call(client, 'screen_address', { chain: 'ETH', address: '0x1234' })).error.code).toBe('address_invalid');
    expect(structured(await call(client, 'screen_address', { chain: 'ETH', address: '' })).error.code).toBe('address_invalid');
    expect(structured(await call(client, 'screen_address', { chain: 'ETH', address: `0x${'a'.repeat(400)}` })).error.code).toBe(
      'address_invalid',
    );
    expect(structured(await call(client, 'check_transfer', { chain: 'BASE', tx_hash: 'nope' })).error.code).toBe('body_invalid');
  });

  it('the free tools: networks and prices, and an unknown check id is not found', async () => {
    const client = await mcpClient();
    const listing = structured(await call(client, 'list_networks', {}));
    expect(listing.payment).toMatchObject({ network: NETWORK.caip2, asset: USDC, pay_to: h.payTo });
    expect(listing.paid_tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: 'screen_address', price_usd: 0.1 }),
        expect.objectContaining({ tool: 'check_address', price_usd: 1 }),
        expect.objectContaining({ tool: 'check_transfer', price_usd: 0.5, chains: expect.arrayContaining(['BASE']) }),
      ]),
    );
    const missing = await call(client, 'get_transfer_check_result', { check_id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.isError).toBe(true);
    expect(structured(missing).error.code).toBe('not_found');
  });

  it('GET and DELETE /mcp are 405: the endpoint is stateless', async () => {
    expect((await fetch(`${h.url}/mcp`)).status).toBe(405);
    expect((await fetch(`${h.url}/mcp`, { method: 'DELETE' })).status).toBe(405);
  });

  it('an oversized body is 413 payload_too_large, as on the REST routes (POST /explore, and V2)', async () => {
    const oversized = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'screen_address', arguments: { address: madeUpEvmAddress('mcp-big'), network: 'ETH', pad: 'x'.repeat(20_000) } },
    });
    for (const path of ['/mcp', '/explore']) {
      const response = await fetch(`${h.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: oversized,
      });
      expect(response.status, path).toBe(413);
      expect((await response.json()).error.code, path).toBe('payload_too_large');
    }
  });
});

describe('paying through the MCP proxy', () => {
  it('screen_address through the proxy: settled on chain once, then the verdict with the receipt', async () => {
    const target = madeUpEvmAddress('mcp-paid');
    const [payerBefore, payeeBefore] = await Promise.all([h.balance(h.payer.address), h.balance(h.payTo)]);
    const { agent, spentMicros } = await throughProxy({ capUsd: 1 });
    const result = await call(agent, 'screen_address', { chain: 'eth', address: target });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toMatchObject({
      address: target.toLowerCase(),
      network: 'ETH',
      verdict: { ok: true },
      billing: { model: 'x402', charged_usd: 0.1, payer: h.payer.address, replay: false },
    });
    const receipt = result._meta?.['x402/payment-response'] as { success: boolean; transaction: string };
    expect(receipt).toMatchObject({ success: true, network: NETWORK.caip2, payer: h.payer.address });
    expect(structured(result).billing.transaction).toBe(receipt.transaction);
    expect(await settlementsOn(receipt.transaction)).toBe('success');
    expect(await h.balance(h.payer.address)).toBe(payerBefore - 100_000n);
    expect(await h.balance(h.payTo)).toBe(payeeBefore + 100_000n);
    expect(spentMicros()).toBe(100_000);
  });

  it('the same proof sent again is payment_replayed, with a fresh quote, and moves nothing', async () => {
    const client = await mcpClient();
    const args = { chain: 'ETH', address: madeUpEvmAddress('mcp-replay') };
    const requirement = paymentRequirementsSchema.parse(structured(await call(client, 'screen_address', args)).accepts[0]);
    const proof = await signPaymentFor(h.payer, knownUsdcOf(requirement)!, requirement, { url: `${h.url}/mcp` });
    const first = await call(client, 'screen_address', args, { 'x402/payment': proof });
    expect(first.isError).toBeFalsy();
    // nobody knows this address: the first line says unknown, never clean, and which lists were (not) checked
    expect(structured(first).coverage.data_available).toBe(false);
    expect((first.content[0] as { text: string }).text).toMatch(/^unknown: no data: .*sanctions lists checked: US; NOT checked: UK, EU$/);
    expect(JSON.parse((first.content[1] as { text: string }).text)).toEqual(structured(first));
    const payeeAfterFirst = await h.balance(h.payTo);
    const again = await call(client, 'screen_address', args, { 'x402/payment': proof });
    expect(again.isError).toBe(true);
    expect(structured(again)).toMatchObject({ x402Version: 2, error: 'payment_replayed', accepts: [{ amount: '100000' }] });
    expect(await h.balance(h.payTo)).toBe(payeeAfterFirst);
  });

  it('a call over the spend cap is refused before paying: no transaction is broadcast', async () => {
    const wallet = await fundedWallet(5_000_000n);
    const { agent, spentMicros } = await throughProxy({ capUsd: 0.15, wallet });
    expect((await call(agent, 'screen_address', { chain: 'ETH', address: madeUpEvmAddress('mcp-cap-1') })).isError).toBeFalsy();
    const [blockBefore, balanceBefore] = [await blockNumber(), await h.balance(wallet.address)];
    const refused = await call(agent, 'screen_address', { chain: 'ETH', address: madeUpEvmAddress('mcp-cap-2') });
    expect(refused.isError).toBe(true);
    expect(structured(refused).error.code).toBe('spend_cap_exceeded');
    expect(await blockNumber()).toBe(blockBefore);
    expect(await h.balance(wallet.address)).toBe(balanceBefore);
    expect(spentMicros()).toBe(100_000);
    const dearer = await call(agent, 'check_address', { chain: 'ETH', address: madeUpEvmAddress('mcp-cap-3') });
    expect(structured(dearer).error.code).toBe('spend_cap_exceeded');
    expect(await blockNumber()).toBe(blockBefore);
  });

  it('a check that outlives the call returns its check id and the free result tool, charged once', async () => {
    const { agent, spentMicros } = await throughProxy({ capUsd: 5, base: impatientUrl });
    const payeeBefore = await h.balance(h.payTo);
    const accepted = await call(agent, 'check_address', { chain: 'ETH', address: madeUpEvmAddress('mcp-slow-check') });
    expect(structured(accepted)).toMatchObject({
      check_id: expect.any(String),
      status: 'running',
      result_tool: 'get_address_check_result',
      billing: { charged_usd: 1 },
    });
    let result: CallToolResult = accepted;
    for (let attempt = 0; attempt < 200 && structured(result).status === 'running'; attempt++) {
      await h.svc.services.whenCaughtUp();
      result = await call(agent, 'get_address_check_result', { check_id: structured(accepted).check_id });
    }
    expect(result.isError).toBeFalsy();
    expect(structured(result).verdict).toMatchObject({ tier4_applied: false });
    expect(await h.balance(h.payTo)).toBe(payeeBefore + 1_000_000n);
    expect(spentMicros()).toBe(1_000_000);
  });

  it('check_transfer of an unknown transaction settles exactly as the REST route does for one', async () => {
    const unknown = (byte: string) => `0x${byte.repeat(32)}`;
    const payee = () => h.balance(h.payTo);

    const restBefore = await payee();
    const rest = await h.payingFetch()(`/check-transfer/BASE/${unknown('e1')}`);
    const restBody = (await rest.json()) as { error?: { code: string } };
    const restSettled = (await payee()) - restBefore;

    const { agent } = await throughProxy({ capUsd: 5 });
    const mcpBefore = await payee();
    const viaMcp = await call(agent, 'check_transfer', { chain: 'BASE', tx_hash: unknown('e2') });
    const mcpSettled = (await payee()) - mcpBefore;

    expect(viaMcp.isError).toBe(rest.status >= 400);
    expect(structured(viaMcp).error?.code).toBe(restBody.error?.code);
    expect(mcpSettled).toBe(restSettled);
  });
});

describe('rate limits shared with REST', () => {
  it('MCP calls draw on the same per-client buckets as the REST routes, and a refusal says when to retry', async () => {
    // a client of its own (behind a trusted proxy), so no other test's calls are in its buckets
    const strict = await buildX402App({
      ...h.svc.services.x402.app!,
      trustedProxies: ['loopback'],
      limits: { paidPerMinute: 1, freePerMinute: 3 },
    });
    await strict.listen({ port: 0, host: '127.0.0.1' });
    opened.push({ close: () => strict.close() });
    const base = `http://127.0.0.1:${(strict.server.address() as AddressInfo).port}`;
    const from = { 'x-forwarded-for': '203.0.113.77' };
    const client = await mcpClient(base, from);
    const address = madeUpEvmAddress('mcp-limit');

    expect((await fetch(`${base}/screen/ETH/${address}`, { headers: from })).status).toBe(402); // free 1 (REST quote)
    expect(structured(await call(client, 'screen_address', { chain: 'ETH', address })).error).toBe('payment_required'); // free 2
    expect(structured(await call(client, 'list_networks', {})).payment).toBeDefined(); // free 3
    const limited = await call(client, 'list_networks', {});
    expect(structured(limited).error.code).toBe('rate_limit_exceeded');
    expect(structured(limited).retry_after_seconds).toBeGreaterThan(0);
    expect((await fetch(`${base}/screen/ETH/${address}`, { headers: from })).status).toBe(429);

    const requirement = paymentRequirementsSchema.parse(
      structured(await call(await mcpClient(), 'screen_address', { chain: 'ETH', address })).accepts[0],
    );
    const proof = await signPaymentFor(h.payer, knownUsdcOf(requirement)!, requirement, { url: `${base}/mcp` });
    expect((await call(client, 'screen_address', { chain: 'ETH', address }, { 'x402/payment': proof })).isError).toBeFalsy(); // paid 1
    const second = await call(client, 'screen_address', { chain: 'ETH', address }, { 'x402/payment': proof });
    expect(structured(second).error.code).toBe('rate_limit_exceeded');
    expect((await fetch(`${base}/screen/ETH/${address}`, { headers: { ...from, 'x-payment': 'e30=' } })).status).toBe(429);
  });
});

describe('the mcp-proxy CLI verb', () => {
  it('a standard MCP client spawns it over stdio and gets a paid verdict; the key is never printed', async () => {
    const key = generatePrivateKey();
    const wallet = privateKeyToAccount(key);
    await installTestUsdc(h.anvil.rpcUrl, USDC, [{ to: wallet.address, amount: 1_000_000n }]);
    const keyFile = join(await mkdtemp(join(tmpdir(), 'mcp-proxy-')), 'wallet.key');
    await writeFile(keyFile, `${key}\n`, { mode: 0o600 });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        'infra/cli/main.ts',
        'mcp-proxy',
        '--url',
        `${h.url}/mcp`,
        '--wallet-key-file',
        keyFile,
        '--spend-cap-usd',
        '0.10',
      ],
      stderr: 'pipe',
    });
    const logged: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => logged.push(chunk.toString('utf8')));
    const agent = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await agent.connect(transport);
    opened.push(agent);

    expect((await agent.listTools()).tools.map((tool) => tool.name)).toContain('screen_address');
    const result = await call(agent, 'screen_address', { chain: 'ETH', address: madeUpEvmAddress('mcp-stdio') });
    expect(structured(result)).toMatchObject({ verdict: { ok: true }, billing: { charged_usd: 0.1, payer: wallet.address } });
    expect(structured(await call(agent, 'screen_address', { chain: 'ETH', address: madeUpEvmAddress('mcp-stdio-2') })).error.code).toBe(
      'spend_cap_exceeded',
    );
    expect(await h.balance(wallet.address)).toBe(900_000n);

    const stderr = logged.join('');
    expect(stderr).toMatch(/paid 0\.1 USD/);
    expect(stderr.toLowerCase()).not.toContain(key.slice(2).toLowerCase());
  });
});

describe('Bazaar discovery on the REST x402 quotes', () => {
  it('every paid REST route carries a valid bazaar extension in its 402 quote', async () => {
    for (const path of [
      `/screen/ETH/${madeUpEvmAddress('bz')}`,
      `/check-address/ETH/${madeUpEvmAddress('bz')}`,
      `/check-transfer/BASE/0x${'ab'.repeat(32)}`,
    ]) {
      const quote = JSON.parse(Buffer.from((await fetch(`${h.url}${path}`)).headers.get('payment-required')!, 'base64').toString());
      expect(PaymentRequiredV2Schema.safeParse(quote).success).toBe(true);
      const bazaar = quote.extensions.bazaar as DiscoveryExtension;
      expect(bazaar.info.input).toMatchObject({ type: 'http', method: 'GET' });
      expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
      expect(validateDiscoveryExtensionSpec(bazaar as unknown as Record<string, unknown>)).toEqual({ valid: true });
    }
    const explore = await fetch(`${h.url}/explore`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: madeUpEvmAddress('bz'), network: 'ETH' }),
    });
    const bazaar = JSON.parse(Buffer.from(explore.headers.get('payment-required')!, 'base64').toString()).extensions
      .bazaar as DiscoveryExtension;
    expect(bazaar.info.input).toMatchObject({ type: 'http', method: 'POST', bodyType: 'json' });
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
  });
});
