import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createPublicClient, createTestClient, createWalletClient, http, parseEther, type Address, type Hex } from 'viem';
import { fail } from '../../domain/shared/errors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { devAccount } from '../support/chain/anvil.js';
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
    expect(result).toMatchObject({
      composite_result: expect.any(Object),
      policy_result: expect.any(Object),
      billing: { model: 'x402', charged_usd: 0.5, replay: false },
    });
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
    expect(accepted).toMatchObject({
      check_id: expect.any(String),
      status: 'running',
      retry_url: `/check-transfer-result/${accepted.check_id}`,
    });
    const result = await resultOf(`${h.url}${accepted.retry_url}`);
    expect(result.status).toBe(200);
    const fetched = await result.json();
    expect(fetched).toMatchObject({
      composite_result: expect.any(Object),
      policy_result: expect.any(Object),
      billing: { model: 'x402', currency: 'USD', charged_usd: 0, transaction: null, replay: true },
      elapsed_ms: expect.any(Number),
    });
    // the free result is the same body as the synchronous 200 (here: a later paid request, served as already paid)
    const synchronous = await (await h.payingFetch()(`/check-transfer/BASE/${other}`)).json();
    expect(Object.keys(fetched).sort()).toEqual(Object.keys(synchronous).sort());
    expect(fetched.composite_result).toEqual(synchronous.composite_result);
    expect((await fetch(`${h.url}/check-transfer-result/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('a transfer that does not exist: 502 tx_not_found before any settlement; nothing charged, nothing recorded, the nonce unused', async () => {
    const [payerBefore, eventsBefore] = [await h.balance(h.payer.address), (await h.paymentEvents()).length];
    const paying = h.payingFetch();
    const response = await paying(`/check-transfer/BASE/0x${'ab'.repeat(32)}`);
    expect(response.status).toBe(502);
    expect((await response.json()).error).toEqual({ code: 'tx_not_found', message: expect.stringMatching(/nothing was charged/) });
    expect(response.headers.get('payment-response')).toBeNull();
    expect(await h.balance(h.payer.address)).toBe(payerBefore);
    expect(await nonceUsed(paying.sent.at(-1)!)).toBe(false);
    expect((await h.paymentEvents()).length).toBe(eventsBefore);
  });

  it('a transfer not mined yet: 502 tx_not_found, not charged; once mined, the same proof pays for the check', async () => {
    const transport = http(h.anvil.rpcUrl);
    const chain = createTestClient({ mode: 'anvil', transport });
    await chain.setAutomine(false);
    try {
      const pending = await createWalletClient({ account: devAccount(3), transport }).sendTransaction({
        to: h.payTo,
        value: parseEther('0.01'),
        chain: null,
      });
      const paying = h.payingFetch();
      const early = await paying(`/check-transfer/BASE/${pending}`);
      expect(early.status).toBe(502);
      expect((await early.json()).error.code).toBe('tx_not_found');
      expect(early.headers.get('payment-response')).toBeNull();
      await chain.mine({ blocks: 1 });
      await chain.setAutomine(true);
      const payeeBefore = await h.balance(h.payTo);
      const mined = await fetch(`${h.url}/check-transfer/BASE/${pending}`, { headers: { 'payment-signature': paying.sent.at(-1)! } });
      expect(mined.status).toBe(200);
      expect((await mined.json()).billing).toMatchObject({ charged_usd: 0.5, replay: false });
      expect(h.receiptOf(mined).success).toBe(true);
      expect(await h.balance(h.payTo)).toBe(payeeBefore + 500_000n);
    } finally {
      await chain.setAutomine(true);
    }
  });

  it('a paid check that failed after settlement: a later request for the transfer gets the result without paying again', async () => {
    const subject = h.receiptOf(await h.payingFetch()(`/screen/ETH/${madeUpEvmAddress('x402-kyt-flaky')}`)).transaction as Hex;
    const decoder = h.svc.services.transferChecks.deps.decoder;
    const decode = decoder.decode.bind(decoder);
    let calls = 0;
    // the lookup before settling succeeds; the paid check's own read then fails once (an endpoint outage)
    (decoder as { decode: typeof decode }).decode = async (chain, txHash) => {
      if (txHash.toLowerCase() === subject.toLowerCase() && ++calls === 2)
        throw fail('backend_unavailable', 'the BASE RPC endpoint failed: outage');
      return decode(chain, txHash);
    };
    try {
      const payeeBefore = await h.balance(h.payTo);
      const first = await h.payingFetch()(`/check-transfer/BASE/${subject}`);
      expect(first.status).toBe(502);
      expect((await first.json()).error.code).toBe('backend_unavailable');
      expect(h.receiptOf(first).success).toBe(true);
      expect(await h.balance(h.payTo)).toBe(payeeBefore + 500_000n);

      const again = h.payingFetch();
      const second = await again(`/check-transfer/BASE/${subject}`);
      expect(second.status).toBe(200);
      expect(await second.json()).toMatchObject({ composite_result: expect.any(Object), billing: { charged_usd: 0, replay: true } });
      expect(second.headers.get('payment-response')).toBeNull();
      expect(await nonceUsed(again.sent.at(-1)!)).toBe(false);
      expect(await h.balance(h.payTo)).toBe(payeeBefore + 500_000n);
    } finally {
      (decoder as { decode: typeof decode }).decode = decode;
    }
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
