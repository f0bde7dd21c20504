import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { requirementFor } from '../../domain/x402/quote.js';
import { X402_NETWORKS } from '../../domain/x402/x402-networks.js';
import { createPayingProxy } from './mcp-proxy.js';

/** What the scripted service does with a paid call. */
type PaidOutcome = 'settled' | 'refused' | 'unknown' | 'waived' | 'not_found';

const terms = { network: X402_NETWORKS['base-sepolia'], payTo: privateKeyToAccount(generatePrivateKey()).address, maxTimeoutSeconds: 300 };
const quote = (priceMicros: number, network: string = terms.network.caip2) => ({
  x402Version: 2,
  error: 'payment_required',
  resource: { url: 'http://service/mcp', description: 'a tool', mimeType: 'application/json' },
  accepts: [{ ...requirementFor(terms, priceMicros), network }],
});
const challenge = (body: Record<string, unknown>, onlyInText = false): CallToolResult => ({
  isError: true,
  ...(onlyInText ? {} : { structuredContent: body }),
  content: [{ type: 'text', text: JSON.stringify({ 'x402/error': { code: 402, message: 'pay', data: body } }) }],
});

/** A scripted x402 MCP service in memory, and an agent talking to it through the paying proxy. */
async function setup(options: { priceMicros: number; capMicros: number; outcome: PaidOutcome; network?: string; onlyInText?: boolean }) {
  const payments: unknown[] = [];
  const service = new McpServer({ name: 'scripted', version: '1' });
  service.registerTool('paid', { inputSchema: { n: z.number().optional() } }, async (_args, extra) => {
    const payment = extra._meta?.['x402/payment'];
    if (!payment) return challenge(quote(options.priceMicros, options.network), options.onlyInText);
    payments.push(payment);
    if (options.outcome === 'refused') return challenge({ ...quote(options.priceMicros), error: 'payment_replayed' });
    if (options.outcome === 'unknown')
      return { isError: true, content: [{ type: 'text', text: '{"error":{"code":"backend_unavailable"}}' }] };
    if (options.outcome === 'not_found') {
      const body = { error: { code: 'tx_not_found', message: 'no such transaction; nothing was charged' } };
      return { isError: true, structuredContent: body, content: [{ type: 'text', text: JSON.stringify(body) }] };
    }
    const receipt =
      options.outcome === 'settled'
        ? { _meta: { 'x402/payment-response': { success: true, transaction: '0xabc', network: terms.network.caip2 } } }
        : {};
    return { content: [{ type: 'text', text: 'served' }], ...receipt };
  });
  const [serviceSide, upstreamSide] = InMemoryTransport.createLinkedPair();
  await service.connect(serviceSide);
  const upstream = new Client({ name: 'upstream', version: '1' });
  await upstream.connect(upstreamSide);

  const wallet = privateKeyToAccount(generatePrivateKey());
  const proxy = createPayingProxy({ upstream, wallet, spendCapMicros: options.capMicros });
  const [agentSide, proxySide] = InMemoryTransport.createLinkedPair();
  await proxy.server.connect(proxySide);
  const agent = new Client({ name: 'agent', version: '1' });
  await agent.connect(agentSide);
  const call = async (meta?: Record<string, unknown>) =>
    (await agent.callTool({ name: 'paid', arguments: {}, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;
  return { call, payments, spent: proxy.spentMicros, wallet };
}

const codeOf = (result: CallToolResult) => (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;

describe('the paying MCP proxy', () => {
  it('pays a challenge with an EIP-3009 proof for exactly the quote, and counts it', async () => {
    const { call, payments, spent, wallet } = await setup({ priceMicros: 100_000, capMicros: 1_000_000, outcome: 'settled' });
    expect((await call()).content[0]).toEqual({ type: 'text', text: 'served' });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      x402Version: 2,
      accepted: { amount: '100000', payTo: terms.payTo },
      payload: {
        authorization: { from: wallet.address, to: terms.payTo, value: '100000', validAfter: '0' },
        signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
      },
    });
    expect(spent()).toBe(100_000);
  });

  it('refuses, before signing anything, a call that would push the total over the cap', async () => {
    const { call, payments, spent } = await setup({ priceMicros: 150_000, capMicros: 100_000, outcome: 'settled' });
    const refused = await call();
    expect(refused.isError).toBe(true);
    expect(codeOf(refused)).toBe('spend_cap_exceeded');
    expect(payments).toHaveLength(0);
    expect(spent()).toBe(0);
  });

  it('concurrent calls cannot overshoot the cap together', async () => {
    const { call, payments, spent } = await setup({ priceMicros: 100_000, capMicros: 250_000, outcome: 'settled' });
    const results = await Promise.all(Array.from({ length: 5 }, () => call()));
    expect(results.filter((result) => codeOf(result) === 'spend_cap_exceeded')).toHaveLength(3);
    expect(payments).toHaveLength(2);
    expect(spent()).toBe(200_000);
  });

  it('hands the amount back when the service refuses the proof before settling, or serves without a charge', async () => {
    const refused = await setup({ priceMicros: 100_000, capMicros: 100_000, outcome: 'refused' });
    expect((await refused.call()).isError).toBe(true);
    expect(refused.spent()).toBe(0);
    const waived = await setup({ priceMicros: 100_000, capMicros: 100_000, outcome: 'waived' });
    expect((await waived.call()).isError).toBeFalsy();
    expect(waived.spent()).toBe(0);
  });

  it('hands the amount back on a refusal with its own code and no receipt (nothing settled)', async () => {
    const { call, spent } = await setup({ priceMicros: 100_000, capMicros: 100_000, outcome: 'not_found' });
    expect(codeOf(await call())).toBe('tx_not_found');
    expect(spent()).toBe(0);
  });

  it('keeps the amount counted when the outcome is unknown', async () => {
    const { call, spent } = await setup({ priceMicros: 100_000, capMicros: 150_000, outcome: 'unknown' });
    await call();
    expect(spent()).toBe(100_000);
    expect(codeOf(await call())).toBe('spend_cap_exceeded');
  });

  it('reads a challenge carried only in content[0].text (the x402/error wrapper)', async () => {
    const { call, payments } = await setup({ priceMicros: 100_000, capMicros: 1_000_000, outcome: 'settled', onlyInText: true });
    await call();
    expect(payments).toHaveLength(1);
  });

  it('pays nothing on a network or asset it does not know', async () => {
    const { call, payments } = await setup({ priceMicros: 100_000, capMicros: 1_000_000, outcome: 'settled', network: 'eip155:1' });
    expect(codeOf(await call())).toBe('payment_unsupported');
    expect(payments).toHaveLength(0);
  });

  it("forwards a call that carries the agent's own payment untouched", async () => {
    const own = { x402Version: 2, mine: true };
    const { call, payments, spent } = await setup({ priceMicros: 100_000, capMicros: 1_000_000, outcome: 'settled' });
    await call({ 'x402/payment': own });
    expect(payments).toEqual([own]);
    expect(spent()).toBe(0);
  });
});
