import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startJsonServer, type JsonReply, type JsonRequest } from '../../test/support/json-server.js';
import { createCoinGeckoPrices, firstPriced } from './coingecko-prices.js';
import { createSnapshotPrices } from './snapshot-prices.js';

/**
 * The CoinGecko adapter against recorded responses in the formats CoinGecko documents for
 * /simple/price and /simple/token_price/{platform} (test/fixtures/coingecko), served on 127.0.0.1.
 */
const recorded = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../test/fixtures/coingecko', `${name}.json`), 'utf8'));
const NOW = 1795420800_000 + 30_000;
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const TRON_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

let status = 200;
function reply(request: JsonRequest): JsonReply {
  if (status !== 200) return { status, json: { status: { error_code: status, error_message: "You've exceeded the Rate Limit." } } };
  const url = new URL(request.url.replace(/^.*?(?=\/simple\/)/, ''), 'http://x');
  if (url.pathname === '/simple/price') return { json: recorded(`simple-price.${url.searchParams.get('ids')}`) };
  const platform = /^\/simple\/token_price\/(.+)$/.exec(url.pathname)?.[1];
  const contract = url.searchParams.get('contract_addresses');
  if (platform === 'ethereum' && contract === USDC) return { json: recorded('token-price.ethereum') };
  if (platform === 'tron' && contract === TRON_USDT) return { json: recorded('token-price.tron') };
  return { json: {} };
}

let server: Awaited<ReturnType<typeof startJsonServer>>;
const prices = (baseUrl = server.url) => createCoinGeckoPrices({ baseUrl, apiKey: 'cg-key', timeoutMs: 2_000, now: () => NOW });
const justNow = new Date(NOW - 5_000);

beforeAll(async () => {
  server = await startJsonServer((request) => reply(request));
});
beforeEach(() => {
  status = 200;
  server.requests.length = 0;
});
afterAll(() => server.close());

describe('CoinGecko prices on recorded responses', () => {
  it('prices a native coin by its CoinGecko id, dated by last_updated_at, with the demo key header', async () => {
    expect(await prices().quote({ network: 'ETH', token: null }, justNow)).toEqual({
      symbol: 'ETH',
      usdMicrosPerUnit: 3_521_450_000,
      asOf: '2026-11-23',
      source: 'coingecko',
    });
    expect(await prices().quote({ network: 'ARBITRUM', token: null }, justNow)).toMatchObject({
      symbol: 'ETH',
      usdMicrosPerUnit: 3_521_450_000,
    });
    expect(await prices().quote({ network: 'TRON', token: null }, justNow)).toMatchObject({ symbol: 'TRX', usdMicrosPerUnit: 287_400 });
    expect(server.requests[0]!.url).toBe('/simple/price?ids=ethereum&vs_currencies=usd&include_last_updated_at=true');
    expect(server.requests[0]!.headers['x-cg-demo-api-key']).toBe('cg-key');
  });

  it('prices a token by contract on its platform (EVM keys lowercase, TRON keys base58)', async () => {
    expect(await prices().quote({ network: 'ETH', token: USDC, listedSymbol: 'USDC' }, justNow)).toEqual({
      symbol: 'USDC',
      usdMicrosPerUnit: 999_912,
      asOf: '2026-11-23',
      source: 'coingecko',
    });
    expect(await prices().quote({ network: 'TRON', token: TRON_USDT, listedSymbol: 'USDT' }, justNow)).toMatchObject({
      usdMicrosPerUnit: 1_001_000,
    });
    expect(server.requests.map((r) => r.url)).toEqual([
      `/simple/token_price/ethereum?contract_addresses=${USDC}&vs_currencies=usd&include_last_updated_at=true`,
      `/simple/token_price/tron?contract_addresses=${TRON_USDT}&vs_currencies=usd&include_last_updated_at=true`,
    ]);
  });

  it('caches an answer for a minute', async () => {
    const once = prices();
    await once.quote({ network: 'ETH', token: null }, justNow);
    await once.quote({ network: 'ETH', token: null }, justNow);
    expect(server.requests).toHaveLength(1);
  });

  it('answers null, never a guess, for an unknown token, a rate limit, a past time and an unreachable API', async () => {
    expect(await prices().quote({ network: 'BSC', token: '0x00000000000000000000000000000000000000aa' }, justNow)).toBeNull();
    status = 429;
    expect(await prices().quote({ network: 'ETH', token: null }, justNow)).toBeNull();
    status = 200;
    const requests = server.requests.length;
    expect(await prices().quote({ network: 'ETH', token: null }, new Date(NOW - 2 * 24 * 3600_000))).toBeNull();
    expect(server.requests).toHaveLength(requests);
    expect(await prices('http://127.0.0.1:9').quote({ network: 'ETH', token: null }, justNow)).toBeNull();
  });

  it('the pro API gets its own key header; firstPriced falls back to the snapshot for what CoinGecko cannot price', async () => {
    const pro = createCoinGeckoPrices({
      baseUrl: `${server.url}/pro-api.coingecko.com/api/v3`,
      apiKey: 'cg-key',
      timeoutMs: 2_000,
      now: () => NOW,
    });
    expect(await pro.quote({ network: 'ETH', token: null }, justNow)).toMatchObject({ source: 'coingecko' });
    expect(server.requests[0]!.headers['x-cg-pro-api-key']).toBe('cg-key');
    const chained = firstPriced([prices(), createSnapshotPrices()]);
    const old = await chained.quote({ network: 'ETH', token: null }, new Date('2024-06-15T00:00:00Z'));
    expect(old).toMatchObject({ source: expect.stringMatching(/^snapshot-/), asOf: '2024-06-01' });
    expect(await chained.quote({ network: 'ETH', token: null }, justNow)).toMatchObject({ source: 'coingecko' });
  });
});
