import type { AddressInfo } from 'node:net';
import type { Config } from '../config.js';

/** Where /metrics goes when it cannot stay on the public port (the port Prometheus' exporters conventionally use). */
export const DEFAULT_METRICS_PORT = 9464;

/** A host that only this machine can reach. */
export const isLoopbackHost = (host: string): boolean => host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);

/** The URL of a listening server as bound (`0.0.0.0` stays `0.0.0.0`: Fastify's own answer names 127.0.0.1). */
export function boundUrl(address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') return String(address);
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

/** /metrics on the public port, or on a listener of its own. */
export type MetricsPlacement = { readonly on: 'public' } | { readonly on: 'own'; readonly host: string; readonly port: number };

/**
 * /metrics never answers other machines unguarded by default: it stays on the public port while that port is
 * loopback-only or METRICS_TOKEN guards it; otherwise, and whenever METRICS_PORT is set, it has a listener of
 * its own (METRICS_HOST, loopback by default).
 */
export function metricsPlacement(config: Pick<Config, 'HOST' | 'METRICS_TOKEN' | 'METRICS_PORT' | 'METRICS_HOST'>): MetricsPlacement {
  if (config.METRICS_PORT !== undefined) return { on: 'own', host: config.METRICS_HOST, port: config.METRICS_PORT };
  if (isLoopbackHost(config.HOST) || config.METRICS_TOKEN !== undefined) return { on: 'public' };
  return { on: 'own', host: config.METRICS_HOST, port: DEFAULT_METRICS_PORT };
}

export interface Exposure {
  readonly host: string;
  /** The addresses listened on, as Fastify reports them. */
  readonly api: string;
  readonly x402: string | null;
  readonly metrics: { readonly url: string; readonly host: string; readonly token: boolean };
  /** Null when another live process of the data directory serves the CLI (cli-channel.ts). */
  readonly cliSocket: string | null;
  readonly demoAccount: boolean;
}

const reach = (host: string) => (isLoopbackHost(host) ? 'this machine only' : 'other machines too');

/** What the start says about where it listens and what is public; `warn`: what production must not keep. */
export function exposureLines(e: Exposure): { api: string; x402: string | null; metrics: string; cli: string; warn: string[] } {
  const open = !isLoopbackHost(e.host);
  return {
    api: open
      ? `listening on ${e.api}, public (HOST=${e.host}: the V2 API, the dashboard and /docs answer other machines)`
      : `listening on ${e.api}, this machine only (HOST=${e.host}; set HOST=0.0.0.0 to serve other machines)`,
    x402: e.x402 && `x402 channel listening on ${e.x402} (${reach(e.host)})`,
    metrics: `metrics on ${e.metrics.url} (${reach(e.metrics.host)}, ${e.metrics.token ? 'Authorization: Bearer METRICS_TOKEN' : 'no token'})`,
    cli: e.cliSocket
      ? `operator CLI on the unix socket ${e.cliSocket} (mode 0600: this user only), on no TCP port`
      : 'operator CLI: served by the other live process of this data directory (its service.json)',
    warn:
      open && e.demoAccount ? ['the demo account is on while other machines can reach the API: set SVC_DEMO_ACCOUNT=0 in production'] : [],
  };
}
