import { classifyIp, describeRefusedAddress, isAllowedAddress, parseIp } from './ip-address.js';

/**
 * What a webhook URL must look like before anything connects to it: HTTPS, no credentials, and a host
 * that is not a refused address literal or a `localhost` name. Host NAMES are judged again by the
 * addresses they resolve to at every connection (infra/webhooks/ssrf-guard.ts): a check here alone
 * would be defeated by DNS rebinding.
 *
 * `allowLocal` (WEBHOOK_ALLOW_LOCAL=1, a development setting) lets http:// and https:// reach loopback
 * only (127.0.0.0/8, ::1, or a `localhost` name), so a receiver on the developer's machine can be used.
 */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type TargetCheck = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): TargetCheck => ({ ok: false, reason });

export function checkTargetUrl(text: string, options: { allowLocal: boolean }): TargetCheck {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return refuse(`the URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('not an absolute URL');
  }
  if (url.username || url.password) return refuse('credentials in the URL are not allowed (they would travel in every delivery)');
  const literal = parseIp(url.hostname);
  const kind = literal ? classifyIp(literal) : null;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const localhostName = !literal && (host === 'localhost' || host.endsWith('.localhost'));
  // loopback: a literal of 127.0.0.0/8 or ::1, or a localhost name (RFC 6761: it resolves to loopback,
  // which the connection's own lookup checks again)
  const loopback = kind === 'loopback' || localhostName;
  if (url.protocol === 'http:') {
    if (!(options.allowLocal && loopback)) return refuse('the URL must use https://');
  } else if (url.protocol !== 'https:') {
    return refuse('the URL must use https://');
  }
  if (literal && kind && !isAllowedAddress(kind, { allowLoopback: options.allowLocal })) {
    return refuse(`refused target: ${describeRefusedAddress(url.hostname, kind)}`);
  }
  if (localhostName && !options.allowLocal) return refuse('refused target: localhost names resolve to loopback addresses');
  return { ok: true, url };
}
