import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { ETH_USD_ON_SAMPLE_DAY } from '../support/full-check-data.js';
import { bodyOf } from '../support/openapi/typed-response.js';
import { pollUntil } from '../support/polling.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * A full check of a super-node: an unlabelled hot-wallet-like address paid by many depositors and by an
 * exchange, in a service whose transfer graph keeps 3 counterparties per direction. The check answers, and
 * its evidence names where the search stopped: at the exchange (a service, not followed) and at the
 * wallet's own aggregated remainder (the depositors the graph holds only as one sum), with its USD.
 *
 *   x (exchange) →9 ETH→ hot;  p1 →1→ hot, p2 →2→ hot, …, p8 →8→ hot   (45 ETH in all, dated 2024-06-15)
 *
 * With a bound of 3 the graph keeps x (9), p8 (8), p7 (7): p1…p6 (21 ETH) are the remainder.
 */

const BOUND = 3;
const DEPOSITORS = [1, 2, 3, 4, 5, 6, 7, 8];
const party = (name: string) => madeUpEvmAddress(`super-node:${name}`).toLowerCase();
const HOT = party('hot');
const EXCHANGE = party('exchange');

async function writeSources(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'svc-super-node-sources-'));
  await mkdir(join(root, 'graphsense-tagpacks'), { recursive: true });
  await mkdir(join(root, 'ofac-brave-intl-lists'), { recursive: true });
  await mkdir(join(root, 'tx-sample-eth-lazarus'), { recursive: true });
  const tags = [{ address: EXCHANGE, currency: 'ETH', category: 'exchange', label: 'example exchange', source: 'https://example.org/x' }];
  const pack = { title: 'Super-node test tags', creator: 'Fixture', lastmod: '2024-06-01', confidence: 'service_data', tags };
  await writeFile(join(root, 'graphsense-tagpacks', 'super-node-test.json'), JSON.stringify(pack));
  await writeFile(join(root, 'ofac-brave-intl-lists', 'sanctioned_addresses_ETH.txt'), `${party('listed')}\n`);
  const transfers: [string, number][] = [[EXCHANGE, 9], ...DEPOSITORS.map((n): [string, number] => [party(`p${n}`), n])];
  const rows = transfers.map(
    ([from, eth], i) => `2024-06-15T11:${String(i).padStart(2, '0')}:00+00:00,\\x${from.slice(2)},\\x${HOT.slice(2)},${eth}`,
  );
  await writeFile(
    join(root, 'tx-sample-eth-lazarus', 'LazarusTabularTxsSuperNodeTest.csv'),
    ['block_time,from,to,total_eth', ...rows].join('\n') + '\n',
  );
  return root;
}

let service: TestService;
let sources: string;

beforeAll(async () => {
  sources = await writeSources();
  service = await startTestService({ SVC_SOURCES_DIR: sources, SVC_GRAPH_SUPER_NODE_BOUND: String(BOUND) });
});
afterAll(async () => {
  await service?.close();
  await rm(sources, { recursive: true, force: true });
});

const RESULT = '/v2/check-address/{check_id}/result';

describe('a full check of a super-node', () => {
  it('answers, and names the exchange it stopped at and the remainder it did not expand, with its USD', async () => {
    const user = await service.account({ depositUsd: 5 });
    const headers = { authorization: `Bearer ${user.apiKey}` };
    const submitted = await service.app.inject({
      method: 'POST',
      url: '/v2/check-address',
      headers,
      payload: { address: HOT, network: 'ETH' },
    });
    const { result_url } = bodyOf(submitted, 'post', '/v2/check-address', 202);
    const done = await pollUntil(async () => {
      const response = await service.app.inject({ method: 'GET', url: result_url, headers });
      return response.statusCode === 202 ? null : response;
    });
    const body = bodyOf(done, 'get', RESULT, 200);
    expect(body.verdict).toMatchObject({ tier3_applied: true });
    const sourceOfFunds = body.exposure.source_of_funds;
    expect(sourceOfFunds).toMatchObject({ applied: true, total_usd: 45 * ETH_USD_ON_SAMPLE_DAY, total_transfers: 9 });

    const remainder = {
      address: HOT,
      hops: 0,
      counterparties: 6,
      usd: 21 * ETH_USD_ON_SAMPLE_DAY,
      share_pct: Math.round((21 / 45) * 10_000) / 100,
      remainder_usd: 21 * ETH_USD_ON_SAMPLE_DAY,
      super_node: true,
    };
    expect(sourceOfFunds.stops).toEqual({
      services: [
        { address: EXCHANGE, slug: 'exchange', label: 'example exchange', hops: 1, usd: 9 * ETH_USD_ON_SAMPLE_DAY, share_pct: 20 },
      ],
      services_total: 1,
      remainders: [remainder],
      remainders_total: 1,
      heaviest_remainder: remainder,
    });
    // The one-hop tier reads the same page: the same stops; no outgoing transfer, so tier 4 did not run.
    expect(body.exposure.direct_incoming.stops?.heaviest_remainder).toEqual(remainder);
    expect(body.exposure.destination_of_funds).toMatchObject({ applied: false, stops: null });
  });
});
