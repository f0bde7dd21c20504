import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERY_TIMEOUT_MS } from '../../domain/webhooks/retry-schedule.js';
import { freePort } from '../../test/support/processes.js';
import { startReceiver, type Receiver } from '../../test/support/webhook-receiver.js';
import { loadConfig } from '../config.js';
import type { HostResolver } from './ssrf-guard.js';
import { createUndiciWebhookTransport } from './undici-webhook-transport.js';

const post = (url: string) => ({ url, headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}' });
const opened: { close(): Promise<void> }[] = [];
const track = <T extends { close(): Promise<void> }>(thing: T): T => (opened.push(thing), thing);
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

async function receiver(respond: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  return track(await startReceiver(respond));
}

/** A DNS server that answers each lookup of a name with the next address of its script. */
function scriptedDns(...answers: string[]): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const address = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return Object.assign(resolver, { calls });
}

describe('undici webhook transport', () => {
  it('the delivery timeout is 10 s unless configured', () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
    expect(loadConfig({ DATA_DIR: '/tmp/unused' }).WEBHOOK_TIMEOUT_MS).toBe(10_000);
  });

  it('POSTs the body and headers and reports the answer with a preview', async () => {
    const hook = await receiver(() => ({ status: 500, body: 'x'.repeat(5000) }));
    const transport = track(createUndiciWebhookTransport({ allowLocal: true }));
    const { outcome, durationMs } = await transport.post(post(hook.url));
    expect(outcome).toEqual({ kind: 'response', responseCode: 500, bodyPreview: 'x'.repeat(200) });
    expect(durationMs).toBeGreaterThanOrEqual(0);
    expect(hook.received[0]!.body).toBe('{"hello":"world"}');
    expect(hook.received[0]!.headers['content-type']).toBe('application/json');
  });

  it('does not follow redirects', async () => {
    const hook = await receiver(() => ({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }));
    const transport = track(createUndiciWebhookTransport({ allowLocal: true }));
    expect((await transport.post(post(hook.url))).outcome).toMatchObject({ kind: 'response', responseCode: 302 });
    expect(hook.received).toHaveLength(1);
  });

  it('a receiver that never answers times out', async () => {
    const hook = await receiver(() => 'hang');
    const transport = track(createUndiciWebhookTransport({ allowLocal: true, timeoutMs: 150 }));
    expect((await transport.post(post(hook.url))).outcome).toEqual({ kind: 'timeout', afterMs: 150 });
  });

  it('nobody listening is a connection error', async () => {
    const transport = track(createUndiciWebhookTransport({ allowLocal: true, timeoutMs: 2000 }));
    const { outcome } = await transport.post(post(`http://127.0.0.1:${await freePort()}/hook`));
    expect(outcome.kind).toBe('connection_error');
    expect(JSON.stringify(outcome)).toMatch(/ECONNREFUSED/);
  });

  it('without WEBHOOK_ALLOW_LOCAL, loopback and plain http are refused before connecting', async () => {
    const hook = await receiver(() => 200);
    const transport = track(createUndiciWebhookTransport({ allowLocal: false }));
    expect((await transport.post(post(hook.url))).outcome).toEqual({ kind: 'refused', reason: 'the URL must use https://' });
    expect((await transport.post(post(hook.url.replace('http:', 'https:')))).outcome).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/loopback/),
    });
    expect(hook.received).toHaveLength(0);
  });

  it('DNS rebinding: a name that resolved to a public address when vetted, and to a private one at delivery, is refused at delivery', async () => {
    const dns = scriptedDns('93.184.216.34', '10.0.0.7');
    const transport = track(createUndiciWebhookTransport({ allowLocal: false, resolver: dns, timeoutMs: 2000 }));
    const url = 'https://hooks.rebind.example/aml';
    expect(await transport.vet(url)).toBeNull();
    const { outcome } = await transport.post(post(url));
    expect(outcome).toEqual({ kind: 'refused', reason: 'hooks.rebind.example resolves to 10.0.0.7 is a private address' });
    expect(dns.calls).toEqual(['hooks.rebind.example', 'hooks.rebind.example']);
  });

  it('the socket lookup judges every resolved address, IPv4-mapped forms included', async () => {
    const metadata = track(createUndiciWebhookTransport({ allowLocal: false, resolver: scriptedDns('::ffff:169.254.169.254') }));
    expect((await metadata.post(post('https://meta.example/x'))).outcome).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/metadata/),
    });
    expect(await metadata.vet('https://meta.example/x')).toMatch(/metadata/);
    const mixed: HostResolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '192.168.1.10', family: 4 },
    ];
    const both = track(createUndiciWebhookTransport({ allowLocal: false, resolver: mixed }));
    expect((await both.post(post('https://mixed.example/x'))).outcome).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/192\.168\.1\.10/),
    });
  });

  it('an allowed resolved address is connected to (here loopback in development, over TLS to a plain server)', async () => {
    const hook = await receiver(() => 200);
    const port = new URL(hook.url).port;
    const transport = track(createUndiciWebhookTransport({ allowLocal: true, resolver: scriptedDns('127.0.0.1'), timeoutMs: 2000 }));
    const { outcome } = await transport.post(post(`https://receiver.example:${port}/hook`));
    // The guard let the socket reach 127.0.0.1:port; the TLS handshake with a plain HTTP server then fails.
    expect(outcome).toMatchObject({ kind: 'connection_error', message: expect.stringMatching(/SSL|TLS/) });
  });

  it('vet accepts a name that does not resolve (it is checked again at every delivery)', async () => {
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const transport = track(createUndiciWebhookTransport({ allowLocal: false, resolver: failing }));
    expect(await transport.vet('https://not-yet.example/x')).toBeNull();
    expect((await transport.post(post('https://not-yet.example/x'))).outcome).toMatchObject({ kind: 'connection_error' });
  });
});
