import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { boundUrl, DEFAULT_METRICS_PORT, exposureLines, isLoopbackHost, metricsPlacement } from './exposure.js';

const TOKEN = 'a-metrics-token-of-enough-length';

describe('listening defaults', () => {
  it('HOST unset is loopback', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.1.2.3', 'api.example.com', '127.0.0.1.example.com'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('names the address as bound, every interface included', () => {
    expect(boundUrl({ address: '0.0.0.0', family: 'IPv4', port: 8080 })).toBe('http://0.0.0.0:8080');
    expect(boundUrl({ address: '::', family: 'IPv6', port: 8080 })).toBe('http://[::]:8080');
  });

  it('/metrics stays on the public port only while it is loopback or a token guards it; else on a loopback listener of its own', () => {
    const placed = (env: Record<string, string>) => metricsPlacement(loadConfig(env));
    expect(placed({})).toEqual({ on: 'public' });
    expect(placed({ HOST: '0.0.0.0', METRICS_TOKEN: TOKEN })).toEqual({ on: 'public' });
    expect(placed({ HOST: '0.0.0.0' })).toEqual({ on: 'own', host: '127.0.0.1', port: DEFAULT_METRICS_PORT });
    expect(placed({ METRICS_PORT: '9100', METRICS_HOST: '10.0.0.5' })).toEqual({ on: 'own', host: '10.0.0.5', port: 9100 });
  });

  it('the start says where it listens, what other machines reach, and warns of a demo account on a public port', () => {
    const facts = {
      api: 'http://0.0.0.0:8080',
      x402: 'http://0.0.0.0:8402',
      metrics: { url: 'http://127.0.0.1:9464/metrics', host: '127.0.0.1', token: false },
      cliSocket: '/srv/data/cli.sock',
      demoAccount: true,
    };
    const open = exposureLines({ ...facts, host: '0.0.0.0' });
    expect(open.api).toBe(
      'listening on http://0.0.0.0:8080, public (HOST=0.0.0.0: the V2 API, the dashboard and /docs answer other machines)',
    );
    expect(open.x402).toBe('x402 channel listening on http://0.0.0.0:8402 (other machines too)');
    expect(open.metrics).toBe('metrics on http://127.0.0.1:9464/metrics (this machine only, no token)');
    expect(open.cli).toContain('/srv/data/cli.sock (mode 0600');
    expect(open.warn).toEqual([expect.stringContaining('SVC_DEMO_ACCOUNT=0')]);
    const local = exposureLines({ ...facts, host: '127.0.0.1', x402: null });
    expect(local.api).toContain('this machine only (HOST=127.0.0.1; set HOST=0.0.0.0 to serve other machines)');
    expect(local.x402).toBeNull();
    expect(local.warn).toEqual([]);
  });
});
