import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { classifyIp, describeRefusedAddress, isAllowedAddress, parseIp } from '../../domain/webhooks/ip-address.js';
import { checkTargetUrl, type TargetCheck } from '../../domain/webhooks/webhook-target.js';

/**
 * The webhook SSRF guard. URLs are judged by domain/webhooks/webhook-target.ts; host names by the
 * addresses they resolve to, checked in the socket's own `lookup`, i.e. for the very address the
 * connection is made to: a name that answered with a public address when the subscription was saved and
 * answers with a private one now (DNS rebinding) is refused now. Every resolved address must pass, not
 * just one. The resolver is injectable so tests can play a rebinding DNS server.
 */
export type HostResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolver: HostResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Thrown inside the socket's lookup; the transport reports it as a refusal, not a connection error. */
export class TargetRefusedError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_REFUSED';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type SocketLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

export interface SsrfGuard {
  checkUrl(url: string): TargetCheck;
  /** checkUrl, then the addresses the host name resolves to now; a name that does not resolve passes. */
  vet(url: string): Promise<string | null>;
  /** A `lookup` for net/tls.connect that refuses any resolved address the policy does not allow. */
  readonly lookup: SocketLookup;
}

const VET_DNS_TIMEOUT_MS = 2000;

export function createSsrfGuard(options: { allowLocal: boolean; resolver?: HostResolver }): SsrfGuard {
  const resolver = options.resolver ?? systemResolver;
  const allowLoopback = options.allowLocal;

  function refusal(addresses: readonly LookupAddress[]): string | null {
    for (const { address } of addresses) {
      const parsed = parseIp(address);
      const kind = parsed ? classifyIp(parsed) : 'reserved';
      if (!isAllowedAddress(kind, { allowLoopback })) return describeRefusedAddress(address, kind);
    }
    return null;
  }

  const lookup: SocketLookup = (hostname, lookupOptions, callback) => {
    resolver(hostname).then(
      (resolved) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const addresses = resolved.filter((a) => family === 0 || a.family === family);
        const refused = refusal(resolved);
        if (refused !== null) return callback(new TargetRefusedError(`${hostname} resolves to ${refused}`), '', 0);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        if (lookupOptions.all) return callback(null, [...addresses]);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  return {
    checkUrl: (url) => checkTargetUrl(url, { allowLocal: options.allowLocal }),
    async vet(url) {
      const checked = checkTargetUrl(url, { allowLocal: options.allowLocal });
      if (!checked.ok) return checked.reason;
      const host = checked.url.hostname;
      if (parseIp(host)) return null;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), VET_DNS_TIMEOUT_MS)));
      const resolved = await Promise.race([resolver(host).catch(() => null), timeout]).finally(() => clearTimeout(timer));
      const refused = resolved ? refusal(resolved) : null;
      return refused === null ? null : `refused target: ${host} resolves to ${refused}`;
    },
    lookup,
  };
}
