import { describe, expect, it } from 'vitest';
import { routeSvg } from './route-svg.js';

describe('evidence route as SVG', () => {
  const route = { addresses: ['0xd000000000000000000000000000000000000001', '0xb000000000000000000000000000000000000002', '0xa0000000000000000000000000000000000000<3'], usd: 10500, label: 'bridge <exploiter>', direction: 'outgoing' as const, title: 'Route 1' };

  it('draws one node per address in order, one arrow per hop with its USD, and the entity at the end', () => {
    const svg = routeSvg(route).value;
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg.match(/<line class="edge"/g)).toHaveLength(2);
    expect(svg.match(/\$10,500/g)!.length).toBeGreaterThanOrEqual(2);
    expect(svg.indexOf('0xd000…0001')).toBeLessThan(svg.indexOf('0xb000…0002'));
    expect(svg).toContain('class="node end"');
    expect(svg).toContain('role="img"');
  });

  it('incoming funds start at the entity: it is the first node, the checked address the last', () => {
    const svg = routeSvg({ ...route, direction: 'incoming' }).value;
    expect(svg.indexOf('class="node end"')).toBeLessThan(svg.indexOf('class="node"'));
    expect(svg.indexOf('bridge &lt;exploiter&gt;')).toBeLessThan(svg.indexOf('checked address'));
  });

  it('escapes what comes from the data (labels, addresses)', () => {
    const svg = routeSvg(route).value;
    expect(svg).not.toContain('<exploiter>');
    expect(svg).toContain('bridge &lt;exploiter&gt;');
    expect(svg).not.toContain('<3');
  });
});
