import { describe, expect, it } from 'vitest';
import { clientGroup } from './client-address.js';

describe('client address grouping for the rate limit', () => {
  it('keeps IPv4 addresses, and maps IPv4-mapped IPv6 to IPv4', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64, whatever their spelling', () => {
    const group = '2001:0db8:0001:0002::/64';
    expect(clientGroup('2001:db8:1:2::1')).toBe(group);
    expect(clientGroup('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(group);
    expect(clientGroup('2001:DB8:1:2:0:0:0:9')).toBe(group);
    expect(clientGroup('2001:db8:1:3::1')).not.toBe(group);
    expect(clientGroup('::1')).toBe('0000:0000:0000:0000::/64');
    expect(clientGroup('fe80::1%eth0')).toBe('fe80:0000:0000:0000::/64');
    expect(clientGroup('2001:db8:1:2::192.0.2.1')).toBe(group);
  });
});
