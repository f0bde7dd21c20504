import { describe, expect, it } from 'vitest';
import { createSnapshotPrices } from './snapshot-prices.js';

/** The snapshot's coverage of the transfer check's chains and of the tokens the imported token lists name. */
const at = new Date('2024-06-15T00:00:00Z');
const LISTED = '0x00000000000000000000000000000000000000a1';

describe('snapshot prices for the transfer check', () => {
  it('prices the native coin of every transfer chain and the stablecoins of the L2s by contract', async () => {
    const prices = createSnapshotPrices();
    for (const network of ['ETH', 'BSC', 'POLYGON', 'BASE', 'ARBITRUM', 'TRON'] as const) {
      expect(await prices.quote({ network, token: null }, at), network).not.toBeNull();
    }
    expect(await prices.quote({ network: 'ARBITRUM', token: '0xaf88d065e77c8cc2239327c5edb3a432268e5831' }, at)).toMatchObject({
      symbol: 'USDC',
      usdMicrosPerUnit: 1_000_000,
    });
    expect(await prices.quote({ network: 'ARBITRUM', token: '0x912ce59144191c1204e64559fe8253a0e49e6548' }, at)).toMatchObject({
      symbol: 'ARB',
      asOf: '2024-06-01',
    });
  });

  it('prices a token the lists name by its listed symbol, and nothing by symbol alone without a listing', async () => {
    const prices = createSnapshotPrices();
    expect(await prices.quote({ network: 'BSC', token: LISTED, listedSymbol: 'link' }, at)).toMatchObject({
      symbol: 'LINK',
      usdMicrosPerUnit: 17_000_000,
      asOf: '2024-06-01',
    });
    expect(await prices.quote({ network: 'BSC', token: LISTED, listedSymbol: 'NOTATOKEN' }, at)).toBeNull();
    expect(await prices.quote({ network: 'BSC', token: LISTED }, at)).toBeNull();
    expect(await prices.quote({ network: 'ETH', token: null, listedSymbol: 'USDT' }, at)).toMatchObject({ symbol: 'ETH' });
  });
});
