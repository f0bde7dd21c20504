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
  ['2021-01-01', 1300],
  ['2021-04-01', 2400],
  ['2021-07-01', 2200],
  ['2021-10-01', 4000],
  ['2022-01-01', 3000],
  ['2022-02-01', 2900],
  ['2022-03-01', 2900],
  ['2022-04-01', 3100],
  ['2022-05-01', 2000],
  ['2022-06-01', 1200],
  ['2022-07-01', 1400],
  ['2022-08-01', 1750],
  ['2022-09-01', 1500],
  ['2022-10-01', 1350],
  ['2022-11-01', 1250],
  ['2022-12-01', 1250],
  ['2023-01-01', 1500],
  ['2023-02-01', 1600],
  ['2023-03-01', 1700],
  ['2023-06-01', 1800],
  ['2023-10-01', 1700],
  ['2024-01-01', 2400],
  ['2024-03-01', 3500],
  ['2024-06-01', 3500],
  ['2024-09-01', 2500],
  ['2024-12-01', 3600],
  ['2025-01-01', 3300],
];

const BNB_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 40],
  ['2021-04-01', 450],
  ['2021-10-01', 500],
  ['2022-01-01', 450],
  ['2022-03-01', 400],
  ['2022-06-01', 250],
  ['2022-09-01', 280],
  ['2023-01-01', 290],
  ['2023-02-01', 310],
  ['2023-06-01', 250],
  ['2024-01-01', 310],
  ['2024-03-01', 550],
  ['2024-06-01', 600],
  ['2025-01-01', 700],
];

const TRX_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 0.03],
  ['2021-04-01', 0.12],
  ['2021-07-01', 0.07],
  ['2022-01-01', 0.07],
  ['2022-06-01', 0.065],
  ['2023-01-01', 0.06],
  ['2023-02-01', 0.066],
  ['2023-06-01', 0.08],
  ['2024-01-01', 0.11],
  ['2024-06-01', 0.12],
  ['2024-12-01', 0.25],
  ['2025-01-01', 0.25],
];

const JST_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 0.03],
  ['2021-04-01', 0.08],
  ['2022-01-01', 0.05],
  ['2022-06-01', 0.03],
  ['2023-01-01', 0.024],
  ['2023-02-01', 0.027],
  ['2023-06-01', 0.025],
  ['2024-01-01', 0.03],
  ['2025-01-01', 0.035],
];

const POL_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 0.03],
  ['2021-05-01', 1.5],
  ['2022-01-01', 2.2],
  ['2022-03-01', 1.5],
  ['2022-06-01', 0.5],
  ['2022-09-01', 0.8],
  ['2023-01-01', 1.0],
  ['2023-03-01', 1.1],
  ['2023-06-01', 0.7],
  ['2024-01-01', 0.85],
  ['2024-03-01', 1.0],
  ['2024-06-01', 0.6],
  ['2025-01-01', 0.45],
];

const BTC_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 33000],
  ['2021-04-01', 58000],
  ['2021-07-01', 35000],
  ['2021-10-01', 48000],
  ['2022-01-01', 46000],
  ['2022-05-01', 38000],
  ['2022-06-01', 30000],
  ['2022-07-01', 20000],
  ['2022-12-01', 17000],
  ['2023-01-01', 16500],
  ['2023-02-01', 23000],
  ['2023-06-01', 27000],
  ['2024-01-01', 42000],
  ['2024-03-01', 62000],
  ['2024-06-01', 67000],
  ['2024-09-01', 58000],
  ['2024-12-01', 97000],
  ['2025-01-01', 94000],
];

const LINK_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 11],
  ['2021-04-01', 28],
  ['2021-07-01', 18],
  ['2021-10-01', 26],
  ['2022-01-01', 21],
  ['2022-06-01', 7],
  ['2023-01-01', 5.6],
  ['2023-06-01', 6],
  ['2023-10-01', 7.5],
  ['2024-01-01', 15],
  ['2024-03-01', 19],
  ['2024-06-01', 17],
  ['2024-09-01', 11],
  ['2024-12-01', 21],
  ['2025-01-01', 20],
];

const UNI_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 5],
  ['2021-04-01', 29],
  ['2021-07-01', 18],
  ['2021-10-01', 25],
  ['2022-01-01', 17],
  ['2022-06-01', 6],
  ['2023-01-01', 5.2],
  ['2023-06-01', 5],
  ['2024-01-01', 6.2],
  ['2024-03-01', 11],
  ['2024-06-01', 10],
  ['2024-09-01', 6.5],
  ['2024-12-01', 15],
  ['2025-01-01', 13],
];

const AAVE_LEVELS: readonly (readonly [string, number])[] = [
  ['2021-01-01', 90],
  ['2021-04-01', 380],
  ['2021-07-01', 280],
  ['2022-01-01', 240],
  ['2022-06-01', 70],
  ['2023-01-01', 55],
  ['2023-06-01', 60],
  ['2024-01-01', 105],
  ['2024-06-01', 95],
  ['2024-09-01', 140],
  ['2024-12-01', 330],
  ['2025-01-01', 320],
];

const ARB_LEVELS: readonly (readonly [string, number])[] = [
  ['2023-03-01', 1.25],
  ['2023-06-01', 1.1],
  ['2023-09-01', 0.85],
  ['2024-01-01', 1.85],
  ['2024-03-01', 1.9],
  ['2024-06-01', 0.95],
  ['2024-09-01', 0.55],
  ['2024-12-01', 0.85],
  ['2025-01-01', 0.75],
];

/**
 * Tokens of the imported token lists, priced by the symbol a list gives their contract (a curated
 * listing, not what a contract says of itself; see AssetRef.listedSymbol): stablecoins, wrapped native
 * coins and a few large tokens. A listed token whose symbol is not here stays unpriced.
 */
export const LISTED_SYMBOL_LEVELS: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  USDT: STABLE,
  USDC: STABLE,
  DAI: STABLE,
  BUSD: STABLE,
  TUSD: STABLE,
  USDP: STABLE,
  PAX: STABLE,
  GUSD: STABLE,
  FDUSD: STABLE,
  USDD: STABLE,
  LUSD: STABLE,
  FRAX: STABLE,
  ETH: ETH_LEVELS,
  WETH: ETH_LEVELS,
  BNB: BNB_LEVELS,
  WBNB: BNB_LEVELS,
  TRX: TRX_LEVELS,
  WTRX: TRX_LEVELS,
  POL: POL_LEVELS,
  MATIC: POL_LEVELS,
  WMATIC: POL_LEVELS,
  WPOL: POL_LEVELS,
  JST: JST_LEVELS,
  WBTC: BTC_LEVELS,
  BTCB: BTC_LEVELS,
  LINK: LINK_LEVELS,
  UNI: UNI_LEVELS,
  AAVE: AAVE_LEVELS,
  ARB: ARB_LEVELS,
};

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
  // The transfer check's chains beyond the screening networks, and the largest wrapped and bridged coins.
  { symbol: 'WBTC', network: 'ETH', token: '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', levels: BTC_LEVELS },
  { symbol: 'WBNB', network: 'BSC', token: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c', levels: BNB_LEVELS },
  { symbol: 'BTCB', network: 'BSC', token: '0x7130d2a12b9bcbfae4f2634d864a1ee1ce3ead9c', levels: BTC_LEVELS },
  { symbol: 'ETH', network: 'BSC', token: '0x2170ed0880ac9a755fd29b2688956bd959f933f8', levels: ETH_LEVELS },
  { symbol: 'USDC', network: 'POLYGON', token: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359', levels: STABLE },
  { symbol: 'USDT', network: 'POLYGON', token: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f', levels: STABLE },
  { symbol: 'WETH', network: 'POLYGON', token: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619', levels: ETH_LEVELS },
  { symbol: 'WPOL', network: 'POLYGON', token: '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270', levels: POL_LEVELS },
  { symbol: 'USDC', network: 'BASE', token: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', levels: STABLE },
  { symbol: 'WETH', network: 'BASE', token: '0x4200000000000000000000000000000000000006', levels: ETH_LEVELS },
  { symbol: 'USDC', network: 'ARBITRUM', token: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', levels: STABLE },
  { symbol: 'USDT', network: 'ARBITRUM', token: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9', levels: STABLE },
  { symbol: 'WETH', network: 'ARBITRUM', token: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1', levels: ETH_LEVELS },
  { symbol: 'ARB', network: 'ARBITRUM', token: '0x912ce59144191c1204e64559fe8253a0e49e6548', levels: ARB_LEVELS },
];
