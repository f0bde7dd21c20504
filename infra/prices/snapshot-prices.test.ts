import { describe, expect, it } from 'vitest';
import { valueInMicros } from '../../domain/ports/prices.port.js';
import { createSnapshotPrices } from './snapshot-prices.js';

describe('the embedded price snapshot', () => {
  const prices = createSnapshotPrices([{ network: 'ETH', token: '0x00000000000000000000000000000000000000AB', symbol: 'PIN', usd: 2.5 }]);

  it('prices a native coin at the level of its date, and names that date', async () => {
    expect(await prices.quote({ network: 'ETH', token: null }, new Date('2022-03-29T21:41:18Z'))).toEqual({
      symbol: 'ETH',
      usdMicrosPerUnit: 2_900_000_000,
      asOf: '2022-03-01',
      source: 'snapshot-2025-01',
    });
    expect((await prices.quote({ network: 'TRON', token: null }, new Date('2019-01-01')))?.asOf).toBe('2021-01-01');
    expect((await prices.quote({ network: 'BSC', token: null }, new Date('2030-01-01')))?.asOf).toBe('2025-01-01');
  });

  it('holds stablecoins at 1 USD, knows tokens by contract only, and prefers an operator pin', async () => {
    expect((await prices.quote({ network: 'TRON', token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, new Date()))?.usdMicrosPerUnit).toBe(
      1_000_000,
    );
    expect((await prices.quote({ network: 'ETH', token: '0xDAC17F958D2EE523A2206206994597C13D831EC7' }, new Date()))?.symbol).toBe('USDT');
    expect(await prices.quote({ network: 'ETH', token: '0x00000000000000000000000000000000000000cd' }, new Date())).toBeNull();
    expect(await prices.quote({ network: 'ETH', token: '0x00000000000000000000000000000000000000ab' }, new Date())).toMatchObject({
      symbol: 'PIN',
      usdMicrosPerUnit: 2_500_000,
      source: 'operator-pin',
    });
  });

  it('values base units exactly in micro-USD', () => {
    expect(valueInMicros(1_500_000n, 6, { usdMicrosPerUnit: 1_000_000 })).toBe(1_500_000);
    expect(valueInMicros(10n ** 18n / 3n, 18, { usdMicrosPerUnit: 3_000_000_000 })).toBe(999_999_999);
    expect(valueInMicros(0n, 18, { usdMicrosPerUnit: 5 })).toBe(0);
  });
});
