import { describe, expect, it } from 'vitest';
import { routeSvg } from './route-svg.js';

/** One of the two drawings of a route: `wide` (desktop, print) or `tall` (phones). */
const drawing = (svg: string, variant: 'wide' | 'tall') => svg.match(new RegExp(`<svg class="${variant}"[\\s\\S]*?</svg>`))?.[0] ?? '';

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
    for (const variant of ['wide', 'tall'] as const) {
      expect(drawing(svg, variant).match(/<circle /g)).toHaveLength(3);
      expect(drawing(svg, variant).match(/<line class="edge"/g)).toHaveLength(2);
    }
    expect(svg).toContain('$10,500 traced along 2 hop(s)');
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
    const svg = drawing(routeSvg(route).value, 'wide');
    const onArrows = [...svg.matchAll(/<text class="usd[^"]*"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(onArrows).toEqual(['$35,000', '≈$21,001']);
    const described = routeSvg(route).value;
    expect(described).toContain('0xd000…0001 → 0xb000…0002: $35,000');
    expect(described).toContain('about $21,001 (the asset is assumed)');
  });

  it('a hop without a price says so, and one the index does not hold says its amount is unknown', () => {
    const svg = routeSvg({ ...route, hops: [{ kind: 'unpriced', transfers: 3 }] }).value;
    const onArrows = [...svg.matchAll(/<text class="usd[^"]*"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(onArrows).toEqual(['no price', 'amount unknown', 'no price', 'amount unknown']); // wide, then tall
    expect(svg).toContain('3 transfer(s) of an asset the service has no price for');
    expect(svg).not.toMatch(/class="usd"[^>]*>\$/);
  });

  it('escapes what comes from the data (labels, addresses)', () => {
    const svg = routeSvg(route).value;
    expect(svg).not.toContain('<exploiter>');
    expect(svg).toContain('bridge &lt;exploiter&gt;');
    expect(svg).not.toContain('<3');
  });

  it('the tall drawing fits a phone: 340 units wide whatever the hops, a row per address, the same USD per hop', () => {
    const long = {
      ...route,
      addresses: [...route.addresses, '0xe000000000000000000000000000000000000004'],
      hops: [...route.hops, { kind: 'unknown' as const }],
    };
    const tall = drawing(routeSvg(long).value, 'tall');
    expect(tall).toMatch(/viewBox="0 0 340 \d+"/);
    const onArrows = [...tall.matchAll(/<text class="usd[^"]*"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(onArrows).toEqual(['$35,000', '≈$21,001', 'amount unknown']);
    // one description for both drawings, named by each
    const svg = routeSvg(long).value;
    const described = [...svg.matchAll(/aria-labelledby="[^ ]+ ([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(described).size).toBe(1);
    expect(svg).toContain(`<figcaption class="hint" id="${described[0]}">`);
  });

  it('names the checked end as the caller says (a transfer check: the sender)', () => {
    const svg = routeSvg({ ...route, direction: 'incoming', anchorCaption: 'sender' }).value;
    expect(svg).toContain('>sender</text>');
    expect(svg).not.toContain('checked address');
  });
});
