import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Address, Hash } from 'viem';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { SOURCE_FIXTURES } from '../helpers/source-fixtures.js';
import { transferChain } from '../support/chain/transfer-chain.js';

/**
 * The KYT demo's chain: made-up transactions on a local anvil that show what a transfer check finds.
 * Every party is made up; the data that names two of them is the repository's own test fixtures
 * (test/fixtures/sources, the official formats), which the demo service imports as SVC_SOURCES_DIR:
 *
 * - `sanctioned`: the first address of the fixture OFAC list (ultrasound.money format) pays a customer
 *   0.25 ETH: a direct exposure, a Severe alert, block;
 * - `indirect`: the same sanctioned address funds a fresh address with 20 ETH, which pays the customer
 *   10 ETH: nothing is known of the sender itself, but all its funds trace one hop back to the listed
 *   address (the service indexes the chain): an indirect exposure, a High alert, hold;
 * - `clean`: the fixture exchange's reserve wallet (a GraphSense TagPack) pays the customer 1 ETH: a known
 *   service, no alert, accept.
 */
export const DEMO_SOURCES = SOURCE_FIXTURES;

export interface DemoTransfer {
  readonly name: 'sanctioned' | 'indirect' | 'clean';
  readonly what: string;
  readonly sender: Address;
  readonly txHash: Hash;
}

export interface DemoChain {
  readonly customer: Address;
  /** The listed address and the name the list gives it. */
  readonly sanctioned: { readonly address: Address; readonly name: string };
  readonly middle: Address;
  readonly exchange: Address;
  /** In the order they were mined: the funding of `middle` first, then the three checked transfers. */
  readonly transfers: readonly DemoTransfer[];
}

/** The first entry of the fixture OFAC list: `address,"NAME"`. */
function fixtureSanctioned(): { address: Address; name: string } {
  const [, line] = readFileSync(join(DEMO_SOURCES, 'ofac-ultrasoundmoney-eth', 'data.csv'), 'utf8').split(/\r?\n/);
  const [address, name] = (line ?? '').split(',');
  if (!address || !name) throw new Error('the fixture OFAC list has no entry');
  return { address: address as Address, name: name.replace(/"/g, '') };
}

/** The fixture exchange's ETH reserve wallet (GraphSense TagPack). */
function fixtureExchange(): Address {
  const pack = JSON.parse(readFileSync(join(DEMO_SOURCES, 'graphsense-tagpacks', 'exchange-wallets-example.json'), 'utf8')) as {
    tags: { address: string; currency: string }[];
  };
  const tag = pack.tags.find((t) => t.currency === 'ETH');
  if (!tag) throw new Error('the fixture exchange TagPack has no ETH wallet');
  return tag.address as Address;
}

/** Mines the demo's transactions on the chain at `rpcUrl` (anvil: senders are impersonated and funded). */
export async function mineDemoChain(rpcUrl: string): Promise<DemoChain> {
  const chain = transferChain(rpcUrl);
  const sanctioned = fixtureSanctioned();
  const exchange = fixtureExchange();
  const customer = madeUpEvmAddress('kyt-demo:customer-deposit') as Address;
  const middle = madeUpEvmAddress('kyt-demo:fresh-wallet') as Address;
  const direct = await chain.sendNative(sanctioned.address, customer, '0.25');
  await chain.sendNative(sanctioned.address, middle, '20');
  const indirect = await chain.sendNative(middle, customer, '10');
  const clean = await chain.sendNative(exchange, customer, '1');
  return {
    customer,
    sanctioned,
    middle,
    exchange,
    transfers: [
      { name: 'sanctioned', what: `0.25 ETH straight from ${sanctioned.name} (OFAC-listed)`, sender: sanctioned.address, txHash: direct },
      {
        name: 'indirect',
        what: `10 ETH from a fresh wallet funded by ${sanctioned.name} one hop earlier`,
        sender: middle,
        txHash: indirect,
      },
      { name: 'clean', what: '1 ETH from an exchange’s reserve wallet', sender: exchange, txHash: clean },
    ],
  };
}
