import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../domain/shared/errors.js';
import { requirementFor } from '../../domain/x402/quote.js';
import { X402_NETWORKS, type X402Terms } from '../../domain/x402/x402-networks.js';
import { madeUpEvmAddress } from '../../test/helpers/made-up-addresses.js';
import { freePort } from '../../test/support/processes.js';
import { signPayment } from '../../test/support/x402-payloads.js';
import { createHttpFacilitator } from './http-facilitator.js';

/** Recorded answers of a hosted facilitator, in the formats of the x402 spec (fixtures of our own). */
const fixture = (name: string) => readFileSync(new URL(`../../test/fixtures/x402-facilitator/${name}.json`, import.meta.url), 'utf8');

const terms: X402Terms = {
  network: X402_NETWORKS['base-sepolia'],
  payTo: madeUpEvmAddress('hosted-payee') as `0x${string}`,
  maxTimeoutSeconds: 300,
};
const requirements = requirementFor(terms, 100_000);

type Answer = { status: number; body: string } | 'hang';
let answers: Record<string, Answer> = {};
const received: { path: string; authorization?: string; body: unknown }[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push({
        path: request.url!,
        ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
        body: text ? JSON.parse(text) : null,
      });
      const answer = answers[`${request.method} ${request.url}`];
      if (answer === 'hang' || !answer) return;
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/facilitator/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// Answers get a bound a loaded machine meets; only the hanging facilitator is waited on for 300 ms.
const facilitator = (timeoutMs = 10_000) => createHttpFacilitator({ url, timeoutMs, authorization: 'Bearer test-key' });
const payment = () => signPayment(privateKeyToAccount(generatePrivateKey()), terms);

async function rejection(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isServiceError(error)) throw new Error(`expected a ServiceError, got ${String(error)}`);
  return { code: error.code, details: error.details };
}

describe('HTTP facilitator adapter against recorded answers', () => {
  it('POST /verify sends the v2 envelope with the API key and reads a valid verdict', async () => {
    answers = { 'POST /facilitator/verify': { status: 200, body: fixture('verify-valid') } };
    const proof = await payment();
    expect(await facilitator().verify(proof, requirements)).toEqual(JSON.parse(fixture('verify-valid')));
    expect(received.at(-1)).toEqual({
      path: '/facilitator/verify',
      authorization: 'Bearer test-key',
      body: { x402Version: 2, paymentPayload: proof, paymentRequirements: requirements },
    });
  });

  it('an invalid verdict is an answer, with 200 or with a non-2xx status (as the reference client reads it)', async () => {
    for (const status of [200, 400]) {
      answers = { 'POST /facilitator/verify': { status, body: fixture('verify-insufficient-funds') } };
      expect(await facilitator().verify(await payment(), requirements)).toMatchObject({
        isValid: false,
        invalidReason: 'invalid_exact_evm_insufficient_balance',
      });
    }
  });

  it('POST /settle reads success and on-chain failure receipts', async () => {
    answers = { 'POST /facilitator/settle': { status: 200, body: fixture('settle-success') } };
    expect(await facilitator().settle(await payment(), requirements)).toEqual(JSON.parse(fixture('settle-success')));
    answers = { 'POST /facilitator/settle': { status: 200, body: fixture('settle-failure') } };
    expect(await facilitator().settle(await payment(), requirements)).toMatchObject({
      success: false,
      errorReason: 'invalid_exact_evm_transaction_failed',
    });
  });

  it('GET /supported lists the kinds and signers', async () => {
    answers = { 'GET /facilitator/supported': { status: 200, body: fixture('supported') } };
    expect((await facilitator().supported()).kinds).toContainEqual({ x402Version: 2, scheme: 'exact', network: 'eip155:84532' });
  });

  it('an unreadable answer or a timeout on /settle leaves the outcome unknown; on /verify nothing was broadcast', async () => {
    answers = { 'POST /facilitator/settle': { status: 502, body: '<html>bad gateway</html>' }, 'POST /facilitator/verify': 'hang' };
    expect(await rejection(facilitator().settle(await payment(), requirements))).toEqual({
      code: 'backend_unavailable',
      details: { broadcast: true },
    });
    expect(await rejection(facilitator(300).verify(await payment(), requirements))).toEqual({
      code: 'backend_unavailable',
      details: { broadcast: false },
    });
    answers = { 'POST /facilitator/settle': 'hang' };
    expect(await rejection(facilitator(300).settle(await payment(), requirements))).toEqual({
      code: 'backend_unavailable',
      details: { broadcast: true },
    });
  });

  it('a refused connection means nothing was broadcast', async () => {
    const closed = createHttpFacilitator({ url: `http://127.0.0.1:${await freePort()}`, timeoutMs: 1000 });
    expect(await rejection(closed.settle(await payment(), requirements))).toEqual({
      code: 'backend_unavailable',
      details: { broadcast: false },
    });
  });
});
