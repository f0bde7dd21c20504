/**
 * IP address parsing and classification for the webhook SSRF guard, in pure code so that the same rules
 * vet a URL at subscription time and every resolved address at connect time. IPv4-mapped, NAT64 and
 * IPv4-compatible IPv6 addresses are judged by the IPv4 address they carry (`::ffff:169.254.169.254`
 * is the metadata service, not a public address).
 */
import { present } from '../shared/present.js';
export type AddressKind =
  'public' | 'loopback' | 'private' | 'shared' | 'link_local' | 'metadata' | 'multicast' | 'unspecified' | 'documentation' | 'reserved';

export interface IpAddress {
  readonly version: 4 | 6;
  /** IPv4 as a 32-bit value, IPv6 as a 128-bit value. */
  readonly value: bigint;
}

export function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

export function parseIpv6(input: string): bigint | null {
  const text = input.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names an interface, not an address
  if (!/^[0-9a-fA-F:.]+$/.test(text) || (text.match(/::/g)?.length ?? 0) > 1) return null;
  let groups: number[];
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (const [i, piece] of pieces.entries()) {
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (v4 === null) return null;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return null;
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const first = parse(head);
  if (first === null) return null;
  if (tail === undefined) {
    if (first.length !== 8) return null;
    groups = first;
  } else {
    const last = parse(tail);
    if (last === null || first.length + last.length > 7) return null;
    groups = [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
  }
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** A literal address (IPv6 possibly in URL brackets), or null when the text is a host name. */
export function parseIp(text: string): IpAddress | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseIpv6(text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text);
  return v6 === null ? null : { version: 6, value: v6 };
}

type Range = readonly [prefix: string, length: number, kind: AddressKind];

const V4_RANGES: readonly Range[] = [
  ['169.254.169.254', 32, 'metadata'], // AWS, GCP, Azure, OpenStack
  ['100.100.100.200', 32, 'metadata'], // Alibaba Cloud
  ['192.0.0.192', 32, 'metadata'], // Oracle Cloud
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'], // carrier-grade NAT
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // including 255.255.255.255
];

const V6_RANGES: readonly Range[] = [
  ['fd00:ec2::254', 128, 'metadata'], // AWS over IPv6
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'reserved'], // local-use NAT64
  ['100::', 64, 'reserved'], // discard-only
  ['2001:db8::', 32, 'documentation'],
  ['2001::', 23, 'reserved'], // IETF protocol assignments, Teredo
  ['2002::', 16, 'reserved'], // 6to4: tunnels into IPv4
  ['fc00::', 7, 'private'], // unique local
  ['fe80::', 10, 'link_local'],
  ['fec0::', 10, 'reserved'], // site-local (deprecated)
  ['ff00::', 8, 'multicast'],
];

const compiled = (ranges: readonly Range[], bits: bigint, parse: (text: string) => bigint | null) =>
  ranges.map(([prefix, length, kind]) => {
    const mask = ((1n << BigInt(length)) - 1n) << (bits - BigInt(length));
    return { network: present(parse(prefix), 'the table holds valid prefixes (a typo fails at load)') & mask, mask, kind };
  });
const V4 = compiled(V4_RANGES, 32n, parseIpv4);
const V6 = compiled(V6_RANGES, 128n, parseIpv6);

/** IPv4 carried inside an IPv6 address: mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, compatible ::/96. */
function embeddedIpv4(value: bigint): bigint | null {
  const high = value >> 32n;
  if (high === 0xffffn || high === 0x64ff9b0000000000000000n || (high === 0n && value > 1n)) return value & 0xffffffffn;
  return null;
}

export function classifyIp(address: IpAddress): AddressKind {
  if (address.version === 6) {
    const v4 = embeddedIpv4(address.value);
    if (v4 !== null) return classifyIp({ version: 4, value: v4 });
  }
  for (const range of address.version === 4 ? V4 : V6) {
    if ((address.value & range.mask) === range.network) return range.kind;
  }
  return 'public';
}

/** Whether a webhook may connect to this address: public ones, and loopback in local development. */
export function isAllowedAddress(kind: AddressKind, options: { allowLoopback: boolean }): boolean {
  return kind === 'public' || (kind === 'loopback' && options.allowLoopback);
}

export function describeRefusedAddress(text: string, kind: AddressKind): string {
  const what: Record<AddressKind, string> = {
    public: 'a public address',
    loopback: 'a loopback address',
    private: 'a private address',
    shared: 'a carrier-grade NAT address',
    link_local: 'a link-local address',
    metadata: 'a cloud metadata address',
    multicast: 'a multicast address',
    unspecified: 'an unspecified address',
    documentation: 'a documentation address',
    reserved: 'a reserved address',
  };
  return `${text} is ${what[kind]}`;
}
