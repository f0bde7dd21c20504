import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';

/**
 * A sources directory of the tests' own, in the official formats, with made-up addresses: a GraphSense
 * TagPack naming a stolen-funds address and an exchange, a brave-intl OFAC list with one sanctioned
 * address, and a transfer sample in the Lazarus CSV format laying out a laundering graph:
 *
 *   r (stolen funds) →10 ETH→ a →6→ b →5→ d ←5← e ←8← x (exchange);  c →4→ b;  s (sanctioned) →1→ t
 *
 * Transfers are dated 2024-06-15, when the price snapshot holds ETH at 3500 USD: d receives 35,000 USD,
 * 30 % of it (10,500 USD) traced to r through a and b, 50 % to the exchange through e.
 */

export const ETH_USD_ON_SAMPLE_DAY = 3500;

export const PARTIES = Object.fromEntries(
  ['r', 'a', 'b', 'c', 'd', 'e', 'x', 's', 't', 'lonely'].map((name) => [name, madeUpEvmAddress(`full-check:${name}`).toLowerCase()]),
) as Record<'r' | 'a' | 'b' | 'c' | 'd' | 'e' | 'x' | 's' | 't' | 'lonely', string>;

const TRANSFERS: readonly [keyof typeof PARTIES, keyof typeof PARTIES, number][] = [
  ['r', 'a', 10],
  ['a', 'b', 6],
  ['c', 'b', 4],
  ['b', 'd', 5],
  ['e', 'd', 5],
  ['x', 'e', 8],
  ['s', 't', 1],
];

export async function writeFullCheckSources(dir?: string): Promise<string> {
  const root = dir ?? (await mkdtemp(join(tmpdir(), 'svc-full-check-sources-')));
  await mkdir(join(root, 'graphsense-tagpacks'), { recursive: true });
  await mkdir(join(root, 'ofac-brave-intl-lists'), { recursive: true });
  await mkdir(join(root, 'tx-sample-eth-lazarus'), { recursive: true });
  const pack = {
    title: 'Full-check test tags',
    creator: 'Fixture',
    lastmod: '2024-06-01',
    confidence: 'service_data',
    tags: [
      {
        address: PARTIES.r,
        currency: 'ETH',
        abuse: 'service_hack',
        label: 'example bridge exploiter',
        source: 'https://example.org/exploit',
      },
      {
        address: PARTIES.x,
        currency: 'ETH',
        category: 'exchange',
        label: 'example exchange hot wallet',
        source: 'https://example.org/exchange',
      },
    ],
  };
  await writeFile(join(root, 'graphsense-tagpacks', 'full-check-test.json'), JSON.stringify(pack, null, 2));
  await writeFile(join(root, 'ofac-brave-intl-lists', 'sanctioned_addresses_ETH.txt'), `${PARTIES.s}\n`);
  const rows = TRANSFERS.map(
    ([from, to, eth], i) =>
      `2024-06-15T10:${String(i).padStart(2, '0')}:00+00:00,\\x${PARTIES[from].slice(2)},\\x${PARTIES[to].slice(2)},${eth}`,
  );
  await writeFile(
    join(root, 'tx-sample-eth-lazarus', 'LazarusTabularTxsFullCheckTest.csv'),
    ['block_time,from,to,total_eth', ...rows].join('\n') + '\n',
  );
  return root;
}
