import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { searchExposure } from '../../domain/exposure/exposure-search.js';
import { hasCode } from '../../domain/shared/errors.js';
import { startJsonServer, type JsonRequest } from '../../test/support/json-server.js';
import { pollUntil } from '../../test/support/polling.js';
import { label, labelsOf } from '../../test/support/transfer-fixtures.js';
import { createSnapshotPrices } from '../prices/snapshot-prices.js';
import { createEtherscanTransferIndex } from './etherscan-transfer-index.js';
import { createTronHttpTransferIndex } from './tron-http-transfer-index.js';

/** The production history adapters against recorded responses in the APIs' documented formats (made-up addresses). */

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/chain');
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
const prices = createSnapshotPrices();
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const A = '0x90f3e4ffbb81043719f0df94a115097b6fe5bf97';
const S = '0xc51f7974b97be2c1f71443977f0abdbb6cd738dc';
const B = '0xa72aaead32bc23a5775ecd8d231f68e0a04136fe';
const T = '0xd9b897599781eea784284a1d7ed898d0802fd5a8';
const U = '0x92d795946a8586c18d6c08dccdba426e758f6bd6';

async function etherscan(answer: (query: URLSearchParams) => string) {
  const server = await startJsonServer((request: JsonRequest) => ({
    json: fixture(answer(new URL(request.url, 'http://x').searchParams)),
  }));
  servers.push(server);
  return server;
}

describe('the Etherscan-compatible history adapter', () => {
  it('reads native and token transfers, values them at their time, skips failed transactions, counts unpriced tokens', async () => {
    const server = await etherscan((q) =>
      q.get('address') !== A ? 'etherscan-empty.json' : q.get('action') === 'txlist' ? 'etherscan-txlist.json' : 'etherscan-tokentx.json',
    );
    const index = createEtherscanTransferIndex({ baseUrl: `${server.url}/v2/api`, apiKey: 'test-key', networks: ['ETH', 'BSC'], prices });
    expect(await index.activity(A, 'ETH')).toEqual({
      incoming: { transfers: 3, usdMicros: 6700e6, counterparties: 3, unpricedTransfers: 1, estimated: false },
      outgoing: { transfers: 1, usdMicros: 3100e6, counterparties: 1, unpricedTransfers: 0, estimated: false },
      firstAt: '2022-04-01T00:00:00.000Z',
      lastAt: '2022-04-02T00:00:00.000Z',
    });
    const page = await index.flows(A, 'ETH', 'in', 10);
    expect([0, 1, 2].map((row) => [page.counterparty(row), page.usdMicros(row), page.transfers(row)])).toEqual([
      [S, 6200e6, 1],
      [T, 500e6, 1],
      [U, 0, 1],
    ]);
    expect(page.sampleTx(0)).toBe(`0x${'2'.padStart(64, '0')}`);
    // Each address is fetched once (two calls: native and tokens), with the documented parameters.
    await index.flows(A, 'ETH', 'out', 10);
    expect(server.requests).toHaveLength(2);
    const query = new URL(server.requests[0]!.url, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      chainid: '1',
      module: 'account',
      address: A,
      page: '1',
      offset: '1000',
      sort: 'desc',
      apikey: 'test-key',
    });
    expect(await index.activity(B, 'ETH')).toBeNull();
  });

  it('asks BSC with chainid 56, and answers nothing for a network it does not serve', async () => {
    const server = await etherscan(() => 'etherscan-empty.json');
    const index = createEtherscanTransferIndex({ baseUrl: server.url, networks: ['BSC'], prices });
    expect(await index.activity(A, 'BSC')).toBeNull();
    expect(new URL(server.requests[0]!.url, 'http://x').searchParams.get('chainid')).toBe('56');
    expect(await index.activity(A, 'ETH')).toBeNull();
    expect(server.requests).toHaveLength(2);
  });

  it('retries a rate-limited call once, then fails as backend_unavailable; the failure is not cached', async () => {
    let limited = true;
    const server = await etherscan((q) =>
      limited ? 'etherscan-rate-limit.json' : q.get('action') === 'txlist' ? 'etherscan-txlist.json' : 'etherscan-tokentx.json',
    );
    const index = createEtherscanTransferIndex({ baseUrl: server.url, networks: ['ETH'], prices, retryPauseMs: 1 });
    const error = await index.activity(A, 'ETH').catch((e: unknown) => e);
    expect(hasCode(error, 'backend_unavailable')).toBe(true);
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
    limited = false;
    expect((await index.activity(A, 'ETH'))?.incoming.transfers).toBe(3);
  });

  it('serves the exposure search like any transfer index', async () => {
    const server = await etherscan((q) =>
      q.get('address') === A ? (q.get('action') === 'txlist' ? 'etherscan-txlist.json' : 'etherscan-tokentx.json') : 'etherscan-empty.json',
    );
    const index = createEtherscanTransferIndex({ baseUrl: server.url, networks: ['ETH'], prices });
    const result = await searchExposure(
      { flows: index.flows.bind(index), classify: labelsOf({ [S]: label('mixer', 6, 'medium') }), now: () => performance.now() },
      {
        address: A,
        network: 'ETH',
        direction: 'in',
        budget: { maxNodes: 100, maxEdges: 1000, maxHops: 3, timeMs: 5000, perNodeLimit: 100 },
      },
    );
    expect(result.categories[0]).toMatchObject({ slug: 'mixer', usdMicros: 6200e6 });
    expect(result.complete).toBe(true);
  });
});

const TA = 'TYMR5m6kycQknB8vqRh96g1swUDTSRFty1';
const TX = 'TP6PWzk9abujy9xRnCBwbksCwk7rByEYvF';
const TY = 'TXG2n7BWuGz6PVcHTAHJmRNnCanMKd7ASR';
const TZ = 'TVz7J9Zeso9hNfAbD8P2iLSbvgrtobKoWF';
const TW = 'TUiJ5tWuxXAEZxPTcELU11tixozwnc9xPx';

async function trongrid(options: { failing?: boolean } = {}) {
  let base = '';
  const server = await startJsonServer((request) => {
    const url = new URL(request.url, 'http://x');
    if (options.failing) return { status: 403, json: fixture('trongrid-error.json') };
    if (!url.pathname.includes(TA)) return { json: { data: [], success: true, meta: { at: 0, page_size: 0 } } };
    if (url.pathname.endsWith('/trc20')) {
      if (url.searchParams.get('fingerprint')) return { json: fixture('trongrid-trc20-page2.json') };
      return { json: JSON.parse(JSON.stringify(fixture('trongrid-trc20-page1.json')).replaceAll('__BASE__', base)) };
    }
    return { json: fixture('trongrid-transactions.json') };
  });
  base = server.url;
  servers.push(server);
  return server;
}

describe('the TRON HTTP API history adapter', () => {
  it('reads TRC-20 pages and TRX transfers (hex addresses), values them at their time, skips failed ones', async () => {
    const server = await trongrid();
    const index = createTronHttpTransferIndex({ baseUrl: server.url, apiKey: 'tron-key', prices });
    const activity = await index.activity(TA, 'TRON');
    expect(activity).toMatchObject({
      incoming: { transfers: 3, usdMicros: 250e6 + 27e6 + 6.6e6, counterparties: 3, unpricedTransfers: 0 },
      outgoing: { transfers: 1, usdMicros: 2.64e6, counterparties: 1 },
    });
    const page = await index.flows(TA, 'TRON', 'in', 10);
    expect([0, 1, 2].map((row) => page.counterparty(row))).toEqual([TX, TY, TZ]);
    expect((await index.flows(TA, 'TRON', 'out', 10)).counterparty(0)).toBe(TW);
    expect(server.requests.map((r) => new URL(r.url, 'http://x').pathname).sort()).toEqual([
      `/v1/accounts/${TA}/transactions`,
      `/v1/accounts/${TA}/transactions/trc20`,
      `/v1/accounts/${TA}/transactions/trc20`,
    ]);
    expect(server.requests[0]!.headers['tron-pro-api-key']).toBe('tron-key');
  });

  it('fails as backend_unavailable when the API refuses', async () => {
    const server = await trongrid({ failing: true });
    const index = createTronHttpTransferIndex({ baseUrl: server.url, prices });
    expect(hasCode(await index.activity(TA, 'TRON').catch((e: unknown) => e), 'backend_unavailable')).toBe(true);
    // Both calls were made (native and tokens): let the second finish before the server closes.
    await pollUntil(async () => (server.requests.length >= 2 ? true : null));
  });
});
