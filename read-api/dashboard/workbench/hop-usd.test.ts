import { describe, expect, it } from 'vitest';
import { EMPTY_TOTALS, flowPageOf, type FlowDirection, type TransferIndex } from '../../../domain/ports/chain-data.port.js';
import { hopAmounts } from './hop-usd.js';

/** A transfer index over plain edges [from, to, usdMicros]: the flows of an address per direction. */
function indexOf(edges: readonly [string, string, number, boolean?][]): TransferIndex & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    activity: () => Promise.resolve(null),
    coverage: (network) => Promise.resolve({ network, datasets: [] }),
    flows: (address, _network, direction: FlowDirection, limit) => {
      asked.push(`${direction}:${address}`);
      const rows = edges
        .filter(([from, to]) => (direction === 'out' ? from : to) === address)
        .map(([from, to, usdMicros, estimated]) => ({
          counterparty: direction === 'out' ? to : from,
          usdMicros,
          transfers: 2,
          estimated: estimated ?? false,
        }))
        .sort((a, b) => b.usdMicros - a.usdMicros);
      return flowPageOf(rows, { ...EMPTY_TOTALS, transfers: rows.length * 2, counterparties: rows.length }, limit);
    },
  };
}

describe('USD per hop of an evidence route', () => {
  const edges: [string, string, number, boolean?][] = [
    ['r', 'a', 35_000e6],
    ['a', 'b', 21_000e6, true],
    ['b', 'd', 0],
    ['c', 'b', 14_000e6],
  ];

  it('outgoing funds: what each address paid the next, read as the search read it (its payments)', async () => {
    const index = indexOf(edges);
    expect(await hopAmounts(index, 'ETH', { addresses: ['r', 'a', 'b', 'd'], direction: 'outgoing' }, 100)).toEqual([
      { kind: 'priced', usd: 35_000, estimated: false },
      { kind: 'priced', usd: 21_000, estimated: true },
      { kind: 'unpriced', transfers: 2 },
    ]);
    expect(index.asked).toEqual(['out:r', 'out:a', 'out:b']);
  });

  it('incoming funds: what each address received from the one before (its receipts)', async () => {
    const index = indexOf(edges);
    expect(await hopAmounts(index, 'ETH', { addresses: ['c', 'b', 'd'], direction: 'incoming' }, 100)).toEqual([
      { kind: 'priced', usd: 14_000, estimated: false },
      { kind: 'unpriced', transfers: 2 },
    ]);
    expect(index.asked).toEqual(['in:b', 'in:d']);
  });

  it('a pair the index does not hold (or beyond the counterparty limit), or no index: unknown, never a guess', async () => {
    expect(await hopAmounts(indexOf(edges), 'ETH', { addresses: ['r', 'x'], direction: 'outgoing' }, 100)).toEqual([{ kind: 'unknown' }]);
    // b received from a (21,000) and c (14,000): with a limit of 1 only a is read.
    expect(await hopAmounts(indexOf(edges), 'ETH', { addresses: ['c', 'b'], direction: 'incoming' }, 1)).toEqual([{ kind: 'unknown' }]);
    expect(await hopAmounts(null, 'ETH', { addresses: ['r', 'a', 'b'], direction: 'outgoing' }, 100)).toEqual([
      { kind: 'unknown' },
      { kind: 'unknown' },
    ]);
  });
});
