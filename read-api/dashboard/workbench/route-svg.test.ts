import { describe, expect, it } from 'vitest';
import { routeSvg } from './route-svg.js';

describe('evidence route as SVG', () => {
  const route = {
    addresses: [
      '0xd000000000000000000000000000000000000001',
      '0xb000000000000000000000000000000000000002',
      '0xa0000000000000000000000000000000000000<3',
    ],
    usd: 10500,
    hops: [
      { kind: 'priced' as const, usd: 35000, estimated: false },
      { kind: 'priced' as const, usd: 21000.5, estimated: true },
    ],
    label: 'bridge <exploiter>',
    direction: 'outgoing' as const,
    title: 'Route 1',
  };

  it('draws one node per address in order, one arrow per hop with its USD, and the entity at the end', () => {
    const svg = routeSvg(route).value;
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg.match(/<line class="edge"/g)).toHaveLength(2);
    expect(svg.match(/\$10,500/g)?.length).toBeGreaterThanOrEqual(2);
    expect(svg.indexOf('0xd000…0001')).toBeLessThan(svg.indexOf('0xb000…0002'));
    expect(svg).toContain('class="node end"');
    expect(svg).toContain('role="img"');
  });

  it('incoming funds start at the entity: it is the first node, the checked address the last', () => {
    const svg = routeSvg({ ...route, direction: 'incoming' }).value;
    expect(svg.indexOf('class="node end"')).toBeLessThan(svg.indexOf('class="node"'));
    expect(svg.indexOf('bridge &lt;exploiter&gt;')).toBeLessThan(svg.indexOf('checked address'));
  });

  it("each hop carries the USD it moved, not the route's figure: ≈ when the asset is assumed", () => {
    const svg = routeSvg(route).value;
    const onArrows = [...svg.matchAll(/<text class="usd[^"]*"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(onArrows).toEqual(['$35,000', '≈$21,001']);
    expect(svg).toContain('0xd000…0001 → 0xb000…0002: $35,000');
    expect(svg).toContain('about $21,001 (the asset is assumed)');
  });

  it('a hop without a price says so, and one the index does not hold says its amount is unknown', () => {
    const svg = routeSvg({ ...route, hops: [{ kind: 'unpriced', transfers: 3 }] }).value;
    const onArrows = [...svg.matchAll(/<text class="usd[^"]*"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(onArrows).toEqual(['no price', 'amount unknown']);
    expect(svg).toContain('3 transfer(s) of an asset the service has no price for');
    expect(svg).not.toMatch(/class="usd"[^>]*>\$/);
  });

  it('escapes what comes from the data (labels, addresses)', () => {
    const svg = routeSvg(route).value;
    expect(svg).not.toContain('<exploiter>');
    expect(svg).toContain('bridge &lt;exploiter&gt;');
    expect(svg).not.toContain('<3');
  });
});
