import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startX402Harness, type X402Harness } from '../support/x402-harness.js';

/** The asynchronous products on the x402 channel: the full check and explore jobs, paid with the real client. */
let h: X402Harness;
let impatient: FastifyInstance;
let impatientUrl: string;
beforeAll(async () => {
  h = await startX402Harness();
  // the same service, with an x402 app that never waits: its paid checks answer 202 at once
  impatient = await buildX402App({ ...h.svc.services.x402.app!, checkWaitMs: 0 });
  await impatient.listen({ port: 0, host: '127.0.0.1' });
  impatientUrl = `http://127.0.0.1:${(impatient.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await impatient?.close();
  await h?.close();
});

/** Bounded polling of a free result endpoint (the pipeline runs in the service's processors). */
async function resultOf(url: string): Promise<Response> {
  for (let attempt = 0; attempt < 200; attempt++) {
    await h.svc.services.whenCaughtUp();
    const response = await fetch(url);
    if (response.status !== 202) return response;
  }
  throw new Error(`${url} still running after 200 polls`);
}

describe('x402 GET /check-address/{chain}/{address}', () => {
  it('quotes 1.00 USD, then settles and answers the four-tier verdict', async () => {
    const path = `/check-address/ETH/${madeUpEvmAddress('x402-full-check')}`;
    const quote = JSON.parse(Buffer.from((await fetch(`${h.url}${path}`)).headers.get('payment-required')!, 'base64').toString());
    expect(quote.accepts[0].amount).toBe('1000000');
    const payeeBefore = await h.balance(h.payTo);
    const response = await h.payingFetch()(path);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      decision: expect.any(String),
      verdict: { tier3_applied: expect.any(Boolean), tier4_applied: false },
      billing: { model: 'x402', charged_usd: 1 },
    });
    expect(await h.balance(h.payTo)).toBe(payeeBefore + 1_000_000n);
  });

  it('past its wait it answers 202 with a free result URL; the check id is the only credential there', async () => {
    const pay = h.payingFetch();
    const response = await pay(`${impatientUrl}/check-address/ETH/${madeUpEvmAddress('x402-slow-check')}`);
    expect(response.status).toBe(202);
    const accepted = await response.json();
    expect(accepted).toMatchObject({
      check_id: expect.any(String),
      status: 'running',
      result_url: `/check-address-result/${accepted.check_id}`,
    });
    const result = await resultOf(`${impatientUrl}${accepted.result_url}`);
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({
      verdict: { tier4_applied: false },
      billing: { model: 'x402', charged_usd: 0, replay: true },
      elapsed_ms: expect.any(Number),
    });
    expect((await fetch(`${h.url}${accepted.result_url}`)).status).toBe(200);
    expect((await fetch(`${h.url}/check-address-result/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fetch(`${h.url}/check-address-result/not-a-check`)).status).toBe(404);
  });

  it("a V2 user's check is not readable on the x402 channel", async () => {
    const { apiKey } = await h.svc.account({ depositUsd: 5 });
    const submitted = await h.svc.app.inject({
      method: 'POST',
      url: '/v2/check-address',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: { address: madeUpEvmAddress('v2-owned'), network: 'ETH' },
    });
    expect(submitted.statusCode).toBe(202);
    const response = await fetch(`${h.url}/check-address-result/${submitted.json().check_id}`);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
  });
});

describe('x402 POST /explore', () => {
  const body = (address: string) => JSON.stringify({ address, network: 'eth', direction: 'both', max_hops: 2 });

  it('a paid job answers 202 with a free result URL that serves its report', async () => {
    const response = await h.payingFetch()('/explore', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(madeUpEvmAddress('x402-explore')),
    });
    expect(response.status).toBe(202);
    const accepted = await response.json();
    expect(accepted).toMatchObject({
      job_id: expect.any(String),
      result_url: `/explore/${accepted.job_id}/result`,
      billing: { charged_usd: 1 },
    });
    const report = await resultOf(`${h.url}${accepted.result_url}`);
    expect(report.status).toBe(200);
    expect(await report.json()).toMatchObject({ job_id: accepted.job_id });
  });

  it('a malformed body is 400 body_invalid before any quote, one that is not JSON 422 as on V2, and an unknown job is 404', async () => {
    const refused = await fetch(`${h.url}/explore`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: 1 }),
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe('body_invalid');
    expect(refused.headers.get('payment-required')).toBeNull();
    const notJson = await fetch(`${h.url}/explore`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"address":',
    });
    expect(notJson.status).toBe(422);
    expect(await notJson.json()).toEqual({ error: { code: 'body_invalid', message: 'the body is not valid JSON' } });
    expect(notJson.headers.get('payment-required')).toBeNull();
    expect((await fetch(`${h.url}/explore/00000000-0000-4000-8000-000000000000/result`)).status).toBe(404);
  });
});
