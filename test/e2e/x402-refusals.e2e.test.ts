import { ExactEvmScheme } from '@x402/evm/exact/client';
import { x402Client, x402HTTPClient } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startX402Harness, type QuoteTamper, type X402Harness } from '../support/x402-harness.js';

let h: X402Harness;
beforeAll(async () => {
  h = await startX402Harness();
});
afterAll(() => h?.close());

const b64 = (text: string) => Buffer.from(text).toString('base64');
const settledCount = async () => (await h.paymentEvents()).filter((t) => t === 'PaymentSettled').length;

/** A refused call: its 4xx code, a fresh quote on every 402, and no settlement (nothing moved on chain). */
async function expectRefused(send: () => Promise<Response>, status: number, code: string) {
  const [payeeBefore, settledBefore] = await Promise.all([h.balance(h.payTo), settledCount()]);
  const response = await send();
  expect(response.status).toBe(status);
  expect((await response.json()).error.code).toBe(code);
  if (status === 402) expect(JSON.parse(Buffer.from(response.headers.get('payment-required')!, 'base64').toString()).error).toBe(code);
  await h.svc.services.whenCaughtUp();
  expect(await h.balance(h.payTo)).toBe(payeeBefore);
  expect(await settledCount()).toBe(settledBefore);
}

const paidWithTamperedQuote = (name: string, tamper: QuoteTamper) => () =>
  h.payingFetch(h.payer, { tamper, spendControls: false })(`/screen/ETH/${madeUpEvmAddress(name)}`);

const withAccept =
  (change: Record<string, unknown>): QuoteTamper =>
  (quote) => ({ ...quote, accepts: quote.accepts.map((a) => ({ ...a, ...change })) });

/** A proof the real client signed for a quote of the service, not yet presented. */
async function signedProof(path: string) {
  const quoted = await fetch(`${h.url}${path}`);
  const http = new x402HTTPClient(new x402Client().register('eip155:*', new ExactEvmScheme(h.payer)));
  return http.createPaymentPayload(http.getPaymentRequiredResponse((name) => quoted.headers.get(name), {}));
}

describe('x402 refusals: every bad proof gets its 4xx code, never a 5xx or a settlement', () => {
  it('a quote tampered to a lower amount, signed by the real client: payment_underpaid', async () => {
    await expectRefused(paidWithTamperedQuote('under', withAccept({ amount: '50000' })), 402, 'payment_underpaid');
  });

  it('an amount edited in a signed proof breaks its signature: payment_invalid', async () => {
    const path = `/screen/ETH/${madeUpEvmAddress('edited')}`;
    const proof = await signedProof(path);
    proof.payload.authorization = { ...(proof.payload.authorization as object), value: '1' };
    await expectRefused(() => fetch(`${h.url}${path}`, { headers: { 'x-payment': b64(JSON.stringify(proof)) } }), 402, 'payment_invalid');
  });

  it('a tampered payTo, network or asset: payment_invalid', async () => {
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    await expectRefused(paidWithTamperedQuote('payto', withAccept({ payTo: elsewhere })), 402, 'payment_invalid');
    await expectRefused(paidWithTamperedQuote('network', withAccept({ network: 'eip155:8453' })), 402, 'payment_invalid');
    await expectRefused(paidWithTamperedQuote('asset', withAccept({ asset: madeUpEvmAddress('other-token') })), 402, 'payment_invalid');
  });

  it('an authorization whose validBefore is in the past: payment_expired', async () => {
    await expectRefused(paidWithTamperedQuote('expired', withAccept({ maxTimeoutSeconds: -60 })), 402, 'payment_expired');
  });

  it('a validBefore absurdly far ahead: payment_invalid', async () => {
    await expectRefused(paidWithTamperedQuote('far', withAccept({ maxTimeoutSeconds: 30 * 24 * 3600 })), 402, 'payment_invalid');
  });

  it('a payer without the balance: payment_invalid from the on-chain check, and the proof is spent', async () => {
    const broke = privateKeyToAccount(generatePrivateKey());
    const path = `/screen/ETH/${madeUpEvmAddress('broke')}`;
    const pay = h.payingFetch(broke);
    await expectRefused(() => pay(path), 402, 'payment_invalid');
    await expectRefused(() => fetch(`${h.url}${path}`, { headers: { 'payment-signature': pay.sent.at(-1)! } }), 402, 'payment_replayed');
  });

  it('malformed base64, malformed JSON, a v1 payload and a payload without authorization: payment_invalid', async () => {
    const path = `${h.url}/screen/TRON/TNiq9AXBp9EjUqhDhrwrfvAA8U3GUQZH81`;
    const send = (header: string) => () => fetch(path, { headers: { 'x-payment': header } });
    await expectRefused(send('%%% not base64 %%%'), 402, 'payment_invalid');
    await expectRefused(send('eyJ4NDAyVmVyc2lvbiI6Mn0'), 402, 'payment_invalid'); // base64 without its padding
    await expectRefused(send(b64('{"x402Version":2,"accepted":')), 402, 'payment_invalid');
    await expectRefused(send(b64('\u00ff\u00fe not utf-8 json')), 402, 'payment_invalid');
    await expectRefused(
      send(b64(JSON.stringify({ x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: {} }))),
      402,
      'payment_invalid',
    );
    await expectRefused(
      send(b64(JSON.stringify({ x402Version: 2, accepted: {}, payload: { signature: '0x00' } }))),
      402,
      'payment_invalid',
    );
  });

  it('input is checked before any quote: chain_unsupported and address_invalid are 400', async () => {
    const get = (path: string) => () => fetch(`${h.url}${path}`);
    await expectRefused(get(`/screen/POLYGON/${madeUpEvmAddress('polygon')}`), 400, 'chain_unsupported');
    await expectRefused(get(`/screen/${'E'.repeat(21)}/${madeUpEvmAddress('long')}`), 400, 'chain_unsupported');
    await expectRefused(get('/screen/ETH/0x1234'), 400, 'address_invalid');
    await expectRefused(get(`/screen/TRON/${madeUpEvmAddress('tron')}`), 400, 'address_invalid');
    await expectRefused(get(`/screen/ETH/0x${'a'.repeat(119)}`), 400, 'address_invalid');
  });

  it("a path parameter past the router's limit is answered as the route answers one too long, in the channel's envelope", async () => {
    const long = 'a'.repeat(300);
    for (const [path, status, code] of [
      [`/screen/ETH/0x${long}`, 400, 'address_invalid'],
      [`/check-address/ETH/0x${long}`, 400, 'address_invalid'],
      [`/check-transfer/ETH/0x${long}`, 400, 'body_invalid'],
      // the path as the router decodes it, not as it was spelled
      [`/scr%65en/ETH/0x${long}`, 400, 'address_invalid'],
      [`/check%2Dtransfer/ETH/0x${long}`, 400, 'body_invalid'],
      [`/check-address-result/${long}`, 404, 'not_found'],
      [`/explore/${long}/result`, 404, 'not_found'],
    ] as const) {
      const response = await fetch(`${h.url}${path}`);
      expect(response.status, path).toBe(status);
      expect(await response.json(), path).toEqual({ error: { code, message: expect.any(String) } });
    }
  });

  it('retired and renamed x402 paths answer 404', async () => {
    const target = madeUpEvmAddress('retired');
    for (const path of [
      `/deep-screen/ETH/${target}`,
      `/tx-screen/ETH/0x${'ab'.repeat(32)}`,
      `/label/ETH/${target}`,
      `/light-screen/ETH/${target}`,
      `/v2/screen`,
    ]) {
      const response = await fetch(`${h.url}${path}`);
      expect(response.status, path).toBe(404);
      expect((await response.json()).error.code).toBe('not_found');
    }
  });
});
