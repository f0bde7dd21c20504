import { ExactEvmScheme } from '@x402/evm/exact/client';
import { x402Client, x402HTTPClient } from '@x402/fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { NETWORK, startX402Harness, USDC, type X402Harness } from '../support/x402-harness.js';
import { verifyReceipt } from '../../infra/receipts/verify-receipt.js';
import { inputHashOf } from '../../domain/receipts/canonical-json.js';

let h: X402Harness;
beforeAll(async () => {
  h = await startX402Harness();
});
afterAll(() => h?.close());

const decode = (header: string | null) => JSON.parse(Buffer.from(header ?? '', 'base64').toString('utf8'));

describe('x402 GET /screen/{chain}/{address} with the real @x402/fetch client', () => {
  it('quotes 0.10 USD in a v2 payment-required header with an empty body', async () => {
    const target = madeUpEvmAddress('x402-quote');
    const response = await fetch(`${h.url}/screen/eth/${target}`);
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({});
    expect(response.headers.get('cache-control')).toBe('no-store');
    const quote = decode(response.headers.get('payment-required'));
    expect(quote).toEqual({
      x402Version: 2,
      error: 'payment_required',
      resource: { url: `${h.url}/screen/eth/${target}`, description: expect.any(String), mimeType: 'application/json' },
      accepts: [
        {
          scheme: 'exact',
          network: 'eip155:84532',
          asset: USDC,
          amount: '100000',
          payTo: h.payTo,
          maxTimeoutSeconds: 300,
          extra: { name: 'USDC', version: '2' },
        },
      ],
      extensions: {
        bazaar: expect.objectContaining({
          info: expect.objectContaining({ input: expect.objectContaining({ type: 'http', method: 'GET' }) }),
        }),
      },
    });
  });

  it('names the route that matched, not the spelling of the URL: an encoded path is quoted as the paid path', async () => {
    const target = madeUpEvmAddress('x402-quote-encoded');
    const response = await fetch(`${h.url}/scr%65en/%65th/${target}`);
    expect(response.status).toBe(402);
    const quote = decode(response.headers.get('payment-required'));
    expect(quote.resource.url).toBe(`${h.url}/screen/eth/${target}`);
    expect(quote.extensions.bazaar.info.input).toMatchObject({ method: 'GET' });
  });

  it('lets browser clients read the x402 headers and send a proof from any origin', async () => {
    const quoted = await fetch(`${h.url}/screen/ETH/${madeUpEvmAddress('x402-cors')}`, { headers: { origin: 'https://agent.example' } });
    expect(quoted.headers.get('access-control-allow-origin')).toBe('*');
    expect(quoted.headers.get('access-control-expose-headers')).toMatch(/PAYMENT-REQUIRED.*PAYMENT-RESPONSE.*X-PAYMENT-RESPONSE/);
    const preflight = await fetch(`${h.url}/screen/ETH/${madeUpEvmAddress('x402-cors')}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'payment-signature',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/PAYMENT-SIGNATURE.*X-PAYMENT/);
  });

  it('a paid screen settles on chain before the verdict is served, with the receipt in both headers', async () => {
    const target = madeUpEvmAddress('x402-paid');
    const [payerBefore, payeeBefore] = await Promise.all([h.balance(h.payer.address), h.balance(h.payTo)]);
    const pay = h.payingFetch();
    const response = await pay(`/screen/ETH/${target}`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      schema_version: 1,
      address: target.toLowerCase(),
      network: 'ETH',
      provider: 'service',
      coverage: { data_available: false, sdn_checked: true, graph_analysed: false },
      verdict: { ok: true },
      billing: {
        model: 'x402',
        currency: 'USD',
        charged_usd: 0.1,
        network: 'eip155:84532',
        asset: USDC,
        payer: h.payer.address,
        replay: false,
      },
    });
    const receipt = h.receiptOf(response);
    expect(receipt).toEqual({
      success: true,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      network: NETWORK.caip2,
      payer: h.payer.address,
    });
    expect(response.headers.get('x-payment-response')).toBe(response.headers.get('payment-response'));
    expect(body.billing.transaction).toBe(receipt.transaction);
    expect(await h.balance(h.payer.address)).toBe(payerBefore - 100_000n);
    expect(await h.balance(h.payTo)).toBe(payeeBefore + 100_000n);
    // The verdict's own receipt (not the settlement's): signed for the payer, verified with the x402 port's JWKS.
    const jwks = (await h.x402.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const signed = await verifyReceipt(body.receipt, jwks);
    expect(signed).toMatchObject({
      valid: true,
      statement: {
        kind: 'screen',
        subject: { network: 'ETH', address: target.toLowerCase(), txHash: null },
        caller: { kind: 'x402_payer', id: h.payer.address.toLowerCase() },
        inputHash: inputHashOf({ address: target.toLowerCase(), network: 'ETH' }),
      },
    });
  });

  it('the captured payment header, re-sent sequentially and then 50 times at once, settles exactly once', async () => {
    const target = madeUpEvmAddress('x402-replay');
    const pay = h.payingFetch();
    expect((await pay(`/screen/ETH/${target}`)).status).toBe(200);
    const captured = pay.sent.at(-1)!;
    const payeeAfterFirst = await h.balance(h.payTo);

    const resend = () => fetch(`${h.url}/screen/ETH/${target}`, { headers: { 'x-payment': captured } });
    const again = await resend();
    expect(again.status).toBe(402);
    expect((await again.json()).error.code).toBe('payment_replayed');
    expect(decode(again.headers.get('payment-required')).error).toBe('payment_replayed');

    const storm = await Promise.all(Array.from({ length: 50 }, resend));
    const bodies = await Promise.all(storm.map((r) => r.json()));
    expect(storm.map((r) => r.status)).toEqual(Array(50).fill(402));
    expect(new Set(bodies.map((b) => b.error.code))).toEqual(new Set(['payment_replayed']));
    expect(await h.balance(h.payTo)).toBe(payeeAfterFirst);
  });

  it('one fresh proof presented 50 times at once is settled once: one 200, 49 payment_replayed', async () => {
    const target = madeUpEvmAddress('x402-race');
    const quoted = await fetch(`${h.url}/screen/ETH/${target}`);
    // the real client signs the quote once; its header is then sent 50 times before the service saw it
    const http = new x402HTTPClient(new x402Client().register('eip155:*', new ExactEvmScheme(h.payer)));
    const payload = await http.createPaymentPayload(http.getPaymentRequiredResponse((name) => quoted.headers.get(name), {}));
    const proof = http.encodePaymentSignatureHeader(payload)['PAYMENT-SIGNATURE']!;
    const payeeBefore = await h.balance(h.payTo);
    const storm = await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${h.url}/screen/ETH/${target}`, { headers: { 'payment-signature': proof } })),
    );
    const bodies = await Promise.all(storm.map((r) => r.json()));
    expect(storm.filter((r) => r.status === 200)).toHaveLength(1);
    expect(bodies.filter((b) => b.error?.code === 'payment_replayed')).toHaveLength(49);
    expect(await h.balance(h.payTo)).toBe(payeeBefore + 100_000n);
  });
});
