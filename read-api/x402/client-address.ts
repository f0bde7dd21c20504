/** How many leading bits of an IPv6 address name one client: a /64 is what one subscriber usually gets. */
import { present } from '../../domain/shared/present.js';
export const IPV6_PREFIX_BITS = 64;

/**
 * The rate-limit key of a client address: IPv4 as is (an IPv4-mapped IPv6 address is its IPv4), IPv6
 * grouped by its /64, since one host can pick any of the 2^64 addresses of its subnet.
 */
export function clientGroup(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return present(mapped[1], 'the pattern matched, and its group is not optional');
  // the socket's (or a trusted proxy's) address: an IPv6 one is the only kind with colons
  if (!ip.includes(':')) return ip;
  const groups = expandIpv6(present(ip.split('%')[0], "ip.split('%')[0]"));
  return `${groups.slice(0, IPV6_PREFIX_BITS / 16).join(':')}::/${IPV6_PREFIX_BITS}`;
}

/** Eight 4-digit hextets, with `::` filled and an embedded dotted IPv4 tail converted. */
function expandIpv6(ip: string): string[] {
  let text = ip.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((h) => h.padStart(4, '0'));
}
