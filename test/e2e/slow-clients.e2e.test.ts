import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../read-api/app.js';
import type { ServerLimits } from '../../read-api/server-limits.js';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startTestService, type TestService } from '../support/test-service.js';

// Short limits for the test; production defaults are in read-api/server-limits.ts and docs/operations.md.
const LIMITS: ServerLimits = { requestTimeoutMs: 600, headersTimeoutMs: 400, keepAliveTimeoutMs: 300, maxConnectionsPerClient: 3 };
/** Past every limit above with room for the server's checking interval: a connection still open now was not cut. */
const CUT_WITHIN_MS = 2_000;

let svc: TestService;
let apiKey: string;
let v2: FastifyInstance;
let x402: FastifyInstance;
const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;

beforeAll(async () => {
  svc = await startTestService({
    X402_PAY_TO: madeUpEvmAddress('slow-clients-payee'),
    X402_RPC_URL: 'http://127.0.0.1:9',
    X402_GAS_WALLET_KEY: `0x${'11'.repeat(32)}`,
  });
  // A valid key: the V2 app then waits for the body instead of refusing the call before reading it.
  apiKey = (await svc.account({ depositUsd: 1 })).apiKey;
  v2 = await buildApp(svc.services.app, { limits: LIMITS });
  // A handler slower than the request timeout: that timeout is for receiving the request, not for answering.
  v2.get('/test/slow-handler', async () => {
    await new Promise((resolve) => setTimeout(resolve, LIMITS.requestTimeoutMs * 2));
    return { ok: true };
  });
  await v2.listen({ port: 0, host: '127.0.0.1' });
  x402 = await buildX402App(svc.services.x402.app!, { limits: LIMITS });
  await x402.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await v2?.close();
  await x402?.close();
  await svc?.close();
});

/** A raw loopback connection that records what the server sent and when it closed. */
function rawClient(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1' });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', () => undefined); // a reset is one way of being cut
    const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - started)));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** Writes one piece every `everyMs` until the server closes the connection or the pieces run out (bounded). */
async function trickle(socket: Socket, pieces: readonly string[], everyMs: number): Promise<number> {
  let sent = 0;
  for (const piece of pieces) {
    if (socket.destroyed || socket.writableEnded || !socket.writable) break;
    socket.write(piece);
    sent++;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return sent;
}

const bodyTrickle = (path: string) => {
  const body = JSON.stringify({ address: madeUpEvmAddress('trickled'), network: 'ETH', padding: 'x'.repeat(200) });
  return {
    head: `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    bytes: body.split(''),
  };
};

describe.each([
  ['the V2 app (and dashboard)', () => v2, '/v2/screen'],
  ['the x402 app', () => x402, '/explore'],
])('slow clients on %s', (_name, app, postPath) => {
  it('a body trickled a byte at a time is cut by the request timeout (408, closed)', { timeout: 20_000 }, async () => {
    const client = await rawClient(portOf(app()));
    const { head, bytes } = bodyTrickle(postPath);
    client.socket.write(head);
    // 60 bytes at 50 ms: 3 s at most, far past the 600 ms request timeout.
    const sent = await trickle(client.socket, bytes.slice(0, 60), 50);
    const closedAfter = await Promise.race([client.closed, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 500))]);
    expect(closedAfter).toBeLessThan(CUT_WITHIN_MS);
    expect(sent).toBeLessThan(60);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    client.socket.destroy();
  });

  it('headers trickled a line at a time are cut by the headers timeout', { timeout: 20_000 }, async () => {
    const client = await rawClient(portOf(app()));
    const lines = ['GET /v2/health HTTP/1.1\r\n', 'Host: 127.0.0.1\r\n', ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${i}\r\n`)];
    await trickle(client.socket, lines, 75);
    const closedAfter = await Promise.race([client.closed, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 500))]);
    expect(closedAfter).toBeLessThan(CUT_WITHIN_MS);
    client.socket.destroy();
  });

  it('caps the open connections of one client address: the one over the cap gets 429 and is closed', { timeout: 20_000 }, async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnectionsPerClient }, () => rawClient(portOf(app()))));
    const over = await rawClient(portOf(app()));
    over.socket.write('GET /v2/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const closedAfter = await Promise.race([
      over.closed,
      new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), CUT_WITHIN_MS)),
    ]);
    expect(closedAfter).toBeLessThan(CUT_WITHIN_MS);
    expect(over.received()).toMatch(/^HTTP\/1\.1 429 /);
    expect(over.received()).toContain('"code":"rate_limit_exceeded"');
    expect(over.received()).toMatch(/retry-after: 1/i);
    for (const client of held) client.socket.destroy();
    await Promise.all(held.map((client) => client.closed));
    // Capacity comes back as connections close.
    const response = await fetch(`http://127.0.0.1:${portOf(app())}/v2/health`);
    await response.arrayBuffer();
    expect(response.status).not.toBe(429);
  });
});

describe('slow clients: what the limits leave alone, and keep-alive', () => {
  it(
    'a handler slower than the request timeout still answers (the timeout is for receiving the request)',
    { timeout: 20_000 },
    async () => {
      const response = await fetch(`http://127.0.0.1:${portOf(v2)}/test/slow-handler`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true });
    },
  );

  it('an idle keep-alive connection is closed after the keep-alive timeout', { timeout: 20_000 }, async () => {
    const client = await rawClient(portOf(v2));
    client.socket.write('GET /v2/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const closedAfter = await Promise.race([client.closed, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 3_000))]);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfter).toBeLessThan(CUT_WITHIN_MS);
  });
});
