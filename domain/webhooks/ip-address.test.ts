import { BlockList, isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyIp, parseIp, parseIpv6, type AddressKind } from './ip-address.js';

const kindOf = (text: string): AddressKind => classifyIp(parseIp(text)!);

describe('IP classification for the SSRF guard', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link_local'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1%eth0', 'link_local'],
    ['fd00:ec2::254', 'metadata'],
    ['fc00::5', 'private'],
    ['ff02::1', 'multicast'],
    ['2606:4700::1111', 'public'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:10.0.0.1]', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:c0a8:101::1', 'reserved'],
  ] as const)('%s is %s', (address, kind) => {
    expect(kindOf(address)).toBe(kind);
  });

  it('host names and malformed literals are not addresses', () => {
    for (const text of ['example.com', '1.2.3', '1.2.3.4.5', '01.2.3.4', '256.1.1.1', '1::2::3', '12345::1', 'g::1', '']) {
      expect(parseIp(text), text).toBeNull();
    }
  });

  it('parses every IPv6 form node:net accepts, to the same bits', () => {
    fc.assert(
      fc.property(fc.ipV6(), (text) => {
        expect(isIP(text)).toBe(6);
        const value = parseIpv6(text);
        expect(value).not.toBeNull();
        const bytes = Buffer.from(value!.toString(16).padStart(32, '0'), 'hex');
        const canonical = new BlockList();
        canonical.addAddress(text, 'ipv6');
        // The address and its own value written out in full are the same address for node as well.
        const full = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16)).join(':');
        expect(canonical.check(full, 'ipv6')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with node:net BlockList on the refused IPv4 ranges', () => {
    const refused = new BlockList();
    for (const [net, prefix] of [
      ['0.0.0.0', 8],
      ['10.0.0.0', 8],
      ['100.64.0.0', 10],
      ['127.0.0.0', 8],
      ['169.254.0.0', 16],
      ['172.16.0.0', 12],
      ['192.0.0.0', 24],
      ['192.0.2.0', 24],
      ['192.88.99.0', 24],
      ['192.168.0.0', 16],
      ['198.18.0.0', 15],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
      ['224.0.0.0', 4],
      ['240.0.0.0', 4],
    ] as const)
      refused.addSubnet(net, prefix, 'ipv4');
    fc.assert(
      fc.property(fc.ipV4(), (text) => {
        expect(kindOf(text) !== 'public').toBe(refused.check(text, 'ipv4'));
        expect(kindOf(`::ffff:${text}`)).toBe(kindOf(text));
      }),
      { numRuns: 2000 },
    );
  });
});
