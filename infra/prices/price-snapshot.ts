import type { Chain, Network } from '../../domain/shared/network.js';

/**
 * The embedded price table: a few assets, each with dated USD levels. A price at a time is the last
 * row on or before it (the first row before any). The levels are rounded monthly levels of public market
 * data written down by hand, good to some percent: enough to weight exposure shares between transfers
 * of different assets, not for accounting. A quote names its row's date, so a stale price shows. The
 * transfer-check work extends this table; a production deployment replaces it with a price API adapter.
 */

export const SNAPSHOT_VERSION = 'snapshot-2025-01';

export interface SnapshotAsset {
  readonly symbol: string;
  readonly network: Network | Chain;
  /** Contract address (EVM lowercased, TRON base58); null for the native coin. */
  readonly token: string | null;
  /** [since YYYY-MM-DD, USD], oldest first. */
  readonly levels: readonly (readonly [string, number])[];
}

const STABLE: readonly (readonly [string, number])[] = [['2018-01-01', 1]];

const ETH_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 1300], ['2021-04-01', 2400], ['2021-07-01', 2200], ['2021-10-01', 4000],
  ['2022-01-01', 3000], ['2022-02-01', 2900], ['2022-03-01', 2900], ['2022-04-01', 3100],
  ['2022-05-01', 2000], ['2022-06-01', 1200], ['2022-07-01', 1400], ['2022-08-01', 1750],
  ['2022-09-01', 1500], ['2022-10-01', 1350], ['2022-11-01', 1250], ['2022-12-01', 1250],
  ['2023-01-01', 1500], ['2023-02-01', 1600], ['2023-03-01', 1700], ['2023-06-01', 1800],
  ['2023-10-01', 1700], ['2024-01-01', 2400], ['2024-03-01', 3500], ['2024-06-01', 3500],
  ['2024-09-01', 2500], ['2024-12-01', 3600], ['2025-01-01', 3300],
];

const BNB_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 40], ['2021-04-01', 450], ['2021-10-01', 500], ['2022-01-01', 450], ['2022-03-01', 400],
  ['2022-06-01', 250], ['2022-09-01', 280], ['2023-01-01', 290], ['2023-02-01', 310], ['2023-06-01', 250],
  ['2024-01-01', 310], ['2024-03-01', 550], ['2024-06-01', 600], ['2025-01-01', 700],
];

const TRX_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 0.03], ['2021-04-01', 0.12], ['2021-07-01', 0.07], ['2022-01-01', 0.07],
  ['2022-06-01', 0.065], ['2023-01-01', 0.06], ['2023-02-01', 0.066], ['2023-06-01', 0.08],
  ['2024-01-01', 0.11], ['2024-06-01', 0.12], ['2024-12-01', 0.25], ['2025-01-01', 0.25],
];

const JST_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 0.03], ['2021-04-01', 0.08], ['2022-01-01', 0.05], ['2022-06-01', 0.03],
  ['2023-01-01', 0.024], ['2023-02-01', 0.027], ['2023-06-01', 0.025], ['2024-01-01', 0.03], ['2025-01-01', 0.035],
];

const POL_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 0.03], ['2021-05-01', 1.5], ['2022-01-01', 2.2], ['2022-03-01', 1.5], ['2022-06-01', 0.5],
  ['2022-09-01', 0.8], ['2023-01-01', 1.0], ['2023-03-01', 1.1], ['2023-06-01', 0.7], ['2024-01-01', 0.85],
  ['2024-03-01', 1.0], ['2024-06-01', 0.6], ['2025-01-01', 0.45],
];

export const SNAPSHOT_ASSETS: readonly SnapshotAsset[] = [
  { symbol: 'ETH', network: 'ETH', token: null, levels: ETH_LEVELS },
  { symbol: 'ETH', network: 'BASE', token: null, levels: ETH_LEVELS },
  { symbol: 'ETH', network: 'ARBITRUM', token: null, levels: ETH_LEVELS },
  { symbol: 'BNB', network: 'BSC', token: null, levels: BNB_LEVELS },
  { symbol: 'TRX', network: 'TRON', token: null, levels: TRX_LEVELS },
  { symbol: 'POL', network: 'POLYGON', token: null, levels: POL_LEVELS },
  { symbol: 'WETH', network: 'ETH', token: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', levels: ETH_LEVELS },
  { symbol: 'USDT', network: 'ETH', token: '0xdac17f958d2ee523a2206206994597c13d831ec7', levels: STABLE },
  { symbol: 'USDC', network: 'ETH', token: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', levels: STABLE },
  { symbol: 'DAI', network: 'ETH', token: '0x6b175474e89094c44da98b954eedeac495271d0f', levels: STABLE },
  { symbol: 'USDT', network: 'BSC', token: '0x55d398326f99059ff775485246999027b3197955', levels: STABLE },
  { symbol: 'USDC', network: 'BSC', token: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d', levels: STABLE },
  { symbol: 'BUSD', network: 'BSC', token: '0xe9e7cea3dedca5984780bafc599bd69add087d56', levels: STABLE },
  { symbol: 'USDT', network: 'TRON', token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', levels: STABLE },
  { symbol: 'USDC', network: 'TRON', token: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', levels: STABLE },
  { symbol: 'JST', network: 'TRON', token: 'TCFLL5dx5ZJdKnWuesXxi1VPwjLVmWZZy9', levels: JST_LEVELS },
];
