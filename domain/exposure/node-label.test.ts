import { describe, expect, it } from 'vitest';
import { memoized, type NodeLabel } from './node-label.js';

const exchange: NodeLabel = {
  category: 'exchange',
  severity: 1,
  riskLevel: 'low',
  label: 'Made-up Exchange',
  source: 'curated',
  sources: ['curated'],
  confidence: 90,
};

describe('memoized classifier', () => {
  it('labels an attributed address once and asks again for an unattributed one', () => {
    const asked: string[] = [];
    const classify = memoized((address) => {
      asked.push(address);
      return address === '0xexchange' ? exchange : null;
    });
    expect(classify('0xexchange')).toBe(exchange);
    expect(classify('0xexchange')).toBe(exchange);
    expect(classify('0xnobody')).toBeNull();
    expect(classify('0xnobody')).toBeNull();
    expect(asked).toEqual(['0xexchange', '0xnobody', '0xnobody']);
  });
});
