import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startX402Harness, type X402Harness } from '../support/x402-harness.js';

/**
 * A JSON body is read one way only: a key repeated at any depth is 422 (JSON.parse would keep the last
 * one, so `{"address":"x","address":"<valid>"}` was charged), and a charset other than UTF-8 is 415 —
 * on every JSON route of the V2 app and of the x402 app, before any charge or payment.
 */
const ADDRESS = madeUpEvmAddress('ambiguous-bodies:clean').toLowerCase();

describe('ambiguous JSON bodies on the V2 app', () => {
  let svc: TestService;
  let key: string;
  const post = (url: string, payload: string, contentType = 'application/json') =>
    svc.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, payload });
  const balance = async () =>
    (await svc.app.inject({ method: 'GET', url: '/v2/balance', headers: { authorization: `Bearer ${key}` } })).json().balance_usd as number;

  beforeAll(async () => {
    svc = await startTestService();
    ({ apiKey: key } = await svc.account({ depositUsd: 5 }));
  });
  afterAll(() => svc.close());

  it('a key repeated at the top level is 422 validation_error naming it, and nothing is charged', async () => {
    const before = await balance();
    const response = await post('/v2/screen', `{"address":"x","address":"${ADDRESS}","network":"ETH"}`);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({
      error: { code: 'validation_error' },
      detail: [{ loc: ['body', 'address'], type: 'json_duplicate_key' }],
    });
    expect(await balance()).toBe(before);
  });

  it('a key repeated deeper, or spelled with an escape, is refused too; on every JSON route', async () => {
    const nested = await post('/v2/explore', `{"address":"${ADDRESS}","network":"ETH","budget":{"a":1,"a":2}}`);
    expect(nested.statusCode, nested.body).toBe(422);
    expect(nested.json().detail[0].loc).toEqual(['body', 'budget', 'a']);
    const escaped = await post('/v2/check-address', `{"address":"${ADDRESS}","network":"ETH","netw\\u006frk":"BSC"}`);
    expect(escaped.statusCode, escaped.body).toBe(422);
    for (const url of ['/v2/check-transfer', '/v2/inspect-address', '/v1/webhooks']) {
      const response = await post(url, '{"chain":"ETH","chain":"BSC"}');
      expect(response.statusCode, `${url}: ${response.body}`).toBe(422);
      expect(response.json().error.code).toBe('validation_error');
    }
  });

  it('a charset other than UTF-8 is 415 unsupported_media_type; UTF-8 in any spelling is served', async () => {
    const before = await balance();
    for (const charset of ['latin1', 'ISO-8859-1', 'utf-16', '"windows-1252"']) {
      const response = await post('/v2/screen', `{"address":"${ADDRESS}","network":"ETH"}`, `application/json; charset=${charset}`);
      expect(response.statusCode, `${charset}: ${response.body}`).toBe(415);
      expect(response.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
    }
    expect(await balance()).toBe(before);
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', 'utf8']) {
      const response = await post('/v2/screen', `{"address":"${ADDRESS}","network":"ETH"}`, `application/json; charset=${charset}`);
      expect(response.statusCode, `${charset}: ${response.body}`).toBe(200);
    }
  });
});

describe('ambiguous JSON bodies on the x402 app', () => {
  let h: X402Harness;
  beforeAll(async () => {
    h = await startX402Harness();
  });
  afterAll(() => h.close());

  it('refuses a repeated key (422) and a non-UTF-8 charset (415) with body_invalid, before any quote or payment', async () => {
    const before = await h.balance(h.payer.address);
    const repeated = `{"address":"x","address":"${ADDRESS}","network":"ETH","direction":"incoming"}`;
    const unpaid = await fetch(`${h.url}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: repeated });
    expect(unpaid.status).toBe(422);
    expect(unpaid.headers.get('payment-required')).toBeNull();
    expect(await unpaid.json()).toMatchObject({ error: { code: 'body_invalid' } });
    // The real paying client never gets a quote to pay.
    const paid = await h.payingFetch()('/explore', { method: 'POST', headers: { 'content-type': 'application/json' }, body: repeated });
    expect(paid.status).toBe(422);
    const latin1 = await fetch(`${h.url}/explore`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=latin1' },
      body: `{"address":"${ADDRESS}","network":"ETH","direction":"incoming"}`,
    });
    expect(latin1.status).toBe(415);
    expect(await latin1.json()).toMatchObject({ error: { code: 'body_invalid' } });
    expect(await h.balance(h.payer.address)).toBe(before);
    expect(await h.paymentEvents()).toEqual([]);
  });

  it('answers a body that is not JSON as V2 does (422, "the body is not valid JSON"), in its own code, before any quote', async () => {
    for (const body of ['{"address":', '']) {
      const response = await fetch(`${h.url}/explore`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status, body).toBe(422);
      expect(response.headers.get('payment-required')).toBeNull();
      expect(await response.json()).toEqual({ error: { code: 'body_invalid', message: 'the body is not valid JSON' } });
    }
    expect(await h.paymentEvents()).toEqual([]);
  });

  it('a wrong method on a known path is 405 with Allow; an unknown path stays 404 (the CORS preflight names no path)', async () => {
    const wrong = await fetch(`${h.url}/screen/ETH/${ADDRESS}`, { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
    expect(await wrong.json()).toEqual({ error: { code: 'method_not_allowed', message: expect.stringContaining('allowed: GET, HEAD') } });
    expect((await fetch(`${h.url}/explore`, { method: 'GET' })).headers.get('allow')).toBe('POST');
    const unknown = await fetch(`${h.url}/nowhere`, { method: 'POST' });
    expect(unknown.status).toBe(404);
  });
});
