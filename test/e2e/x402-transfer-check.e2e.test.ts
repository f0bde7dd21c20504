import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { testUsdcAbi } from '../support/chain/test-usdc.js';
import { startX402Harness, USDC, type X402Harness } from '../support/x402-harness.js';

/**
 * The transfer check on the x402 channel, on the harness's anvil chain read as the BASE endpoint: the
 * transfer checked is a real one on that chain (the settlement of a paid screen).
 */
let h: X402Harness;
let impatient: FastifyInstance;
let impatientUrl: string;
let transfer: string;
beforeAll(async () => {
  h = await startX402Harness({ lateEnv: async (anvil) => ({ CHAIN_RPC_BASE: anvil.rpcUrl }) });
  impatient = await buildX402App({ ...h.svc.services.x402.app!, checkWaitMs: 0 });
  await impatient.listen({ port: 0, host: '127.0.0.1' });
  impatientUrl = `http://127.0.0.1:${(impatient.server.address() as AddressInfo).port}`;
  transfer = h.receiptOf(await h.payingFetch()(`/screen/ETH/${madeUpEvmAddress('x402-kyt-subject')}`)).transaction;
});
afterAll(async () => {
  await impatient?.close();
  await h?.close();
});

const nonceUsed = (payment: string) => {
  const { authorization } = JSON.parse(Buffer.from(payment, 'base64').toString()).payload;
  return createPublicClient({ transport: http(h.anvil.rpcUrl) }).readContract({
    address: USDC,
    abi: testUsdcAbi,
    functionName: 'authorizationState',
    args: [authorization.from as Address, authorization.nonce as Hex],
  });
};

async function resultOf(url: string): Promise<Response> {
  for (let attempt = 0; attempt < 200; attempt++) {
    await h.svc.services.whenCaughtUp();
    const response = await fetch(url);
    if (response.status !== 202) return response;
  }
  throw new Error(`${url} still running after 200 polls`);
}

describe('x402 GET /check-transfer/{chain}/{tx_hash}', () => {
  it('a paid check answers the full result; a second paid request for the same transfer is not charged again', async () => {
    const payeeBefore = await h.balance(h.payTo);
    const first = await h.payingFetch()(`/check-transfer/base/${transfer}`);
    expect(first.status).toBe(200);
    const result = await first.json();
    expect(result).toMatchObject({ composite_result: expect.any(Object), policy_result: expect.any(Object), billing: { model: 'x402', charged_usd: 0.5, replay: false } });
    expect(await h.balance(h.payTo)).toBe(payeeBefore + 500_000n);

    const again = h.payingFetch();
    const second = await again(`/check-transfer/BASE/${transfer.toUpperCase().replace('0X', '0x')}`);
    expect(second.status).toBe(200);
    expect(second.headers.get('payment-response')).toBeNull();
    const replayed = await second.json();
    expect(replayed.billing).toMatchObject({ charged_usd: 0, transaction: null, replay: true });
    expect(replayed.composite_result).toEqual(result.composite_result);
    expect(await nonceUsed(again.sent.at(-1)!)).toBe(false);
    expect(await h.balance(h.payTo)).toBe(payeeBefore + 500_000n);
  });

  it('past its wait it answers 202 with a free retry URL: no payment, no Authorization, the check id is the credential', async () => {
    const other = h.receiptOf(await h.payingFetch()(`/screen/ETH/${madeUpEvmAddress('x402-kyt-slow')}`)).transaction;
    const response = await h.payingFetch()(`${impatientUrl}/check-transfer/BASE/${other}`);
    expect(response.status).toBe(202);
    const accepted = await response.json();
    expect(accepted).toMatchObject({ check_id: expect.any(String), status: 'running', retry_url: `/check-transfer-result/${accepted.check_id}` });
    const result = await resultOf(`${h.url}${accepted.retry_url}`);
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({ composite_result: expect.any(Object), policy_result: expect.any(Object) });
    expect((await fetch(`${h.url}/check-transfer-result/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('a transfer that does not exist: settled, then 502 backend_unavailable with the receipt, recorded for reconciliation', async () => {
    const response = await h.payingFetch()(`/check-transfer/BASE/0x${'ab'.repeat(32)}`);
    expect(response.status).toBe(502);
    expect((await response.json()).error.code).toBe('backend_unavailable');
    expect(h.receiptOf(response).success).toBe(true);
    await h.svc.services.whenCaughtUp();
    const reconcile = await h.svc.services.x402.payments.list({ needsReconciliation: true, limit: 10 });
    expect(reconcile.map((p) => p.resource)).toContain(`GET /check-transfer/BASE/0x${'ab'.repeat(32)}`);
  });

  it('input is checked before any quote: an unreadable chain is chain_unsupported, a malformed hash body_invalid', async () => {
    for (const [path, code] of [
      [`/check-transfer/ETH/${transfer}`, 'chain_unsupported'],
      [`/check-transfer/SOL/${transfer}`, 'chain_unsupported'],
      ['/check-transfer/BASE/0x1234', 'body_invalid'],
      [`/check-transfer/BASE/${transfer.slice(2)}`, 'body_invalid'],
    ] as const) {
      const response = await fetch(`${h.url}${path}`);
      expect(response.status, path).toBe(400);
      expect((await response.json()).error.code).toBe(code);
    }
  });
});
