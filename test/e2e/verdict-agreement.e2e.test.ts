import { createTestClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcContractCodeReader } from '../../infra/chain/rpc-contract-code.js';
import { screenLine } from '../../infra/cli/screen-verb.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { MINIMAL_SANCTIONS_ADDRESS } from '../helpers/source-fixtures.js';
import { entitledAccount, inspectClient } from '../support/inspect-harness.js';
import { startX402Harness, type X402Harness } from '../support/x402-harness.js';

/**
 * One address, asked through every product that shows its verdict: the V2 light screen, the x402 light
 * screen, the CLI's screen, the full check's light tier (V2 and x402), and the inspect's own engine. With
 * an RPC configured for ETH, the chain's answer on contract code is the same in all of them, and so is
 * every field they share. A sanctioned address with code deployed (the lists do not call it a contract),
 * and a wallet nobody lists.
 */
const SANCTIONED_CONTRACT = MINIMAL_SANCTIONS_ADDRESS;
const UNLISTED_CONTRACT = madeUpEvmAddress('verdict-agreement-contract');
const UNLISTED_WALLET = madeUpEvmAddress('verdict-agreement-wallet');

/** The verdict fields the full check takes unchanged from its light tier (the rest it recomputes with the graph). */
const SHARED_VERDICT = [
  'ok',
  'consensus_found',
  'source_count',
  'confidence',
  'primary_source_slug',
  'label',
  'sdn_match',
  'labels',
  'smart_contract',
  'risk_category_detail',
] as const;
const SHARED_COVERAGE = ['data_available', 'label_count', 'source_count', 'sdn_checked', 'consensus_found'] as const;

type Verdict = { verdict: Record<string, unknown>; coverage: Record<string, unknown> };
type Versions = { taxonomy: string; snapshot: string | null; sources: unknown[] };
type Lists = { checked: string[]; not_checked: string[]; lists: { jurisdiction: string; source: string; version: string }[] };
const shared = (body: Verdict) => {
  // the full check adds the transfer data it read, and each verdict has its own time: the rest is one verdict's
  const { taxonomy, snapshot, sources } = body.coverage.data_versions as Versions;
  const sanctions = body.coverage.sanctions as Lists;
  return {
    verdict: Object.fromEntries(SHARED_VERDICT.map((field) => [field, body.verdict[field]])),
    coverage: Object.fromEntries(SHARED_COVERAGE.map((field) => [field, body.coverage[field]])),
    data_versions: { taxonomy, snapshot, sources },
    sanctions: {
      checked: sanctions.checked,
      not_checked: sanctions.not_checked,
      lists: sanctions.lists.map((l) => [l.jurisdiction, l.source, l.version]),
    },
  };
};

let h: X402Harness;
let rpcUrl: string;
let v2Key: string;
let inspectKey: string;

beforeAll(async () => {
  h = await startX402Harness({ lateEnv: async (anvil) => ({ SVC_RPC_URL_ETH: anvil.rpcUrl }) });
  rpcUrl = h.anvil.rpcUrl;
  const chain = createTestClient({ mode: 'anvil', chain: foundry, transport: http(rpcUrl) });
  for (const address of [SANCTIONED_CONTRACT, UNLISTED_CONTRACT])
    await chain.setCode({ address: address as `0x${string}`, bytecode: '0x6080604052600080fd' });
  ({ apiKey: v2Key } = await h.svc.account({ depositUsd: 10 }));
  ({ apiKey: inspectKey } = await entitledAccount(h.svc, { providers: [] }));
}, 60_000);
afterAll(async () => {
  await h?.close();
});

async function v2Screen(address: string): Promise<Verdict> {
  const response = await h.svc.app.inject({
    method: 'POST',
    url: '/v2/screen',
    headers: { authorization: `Bearer ${v2Key}` },
    payload: { address, network: 'ETH' },
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function v2FullCheck(address: string): Promise<Verdict> {
  const headers = { authorization: `Bearer ${v2Key}` };
  const accepted = await h.svc.app.inject({ method: 'POST', url: '/v2/check-address', headers, payload: { address, network: 'ETH' } });
  expect(accepted.statusCode).toBe(202);
  for (let attempt = 0; attempt < 200; attempt++) {
    await h.svc.services.whenCaughtUp();
    const result = await h.svc.app.inject({ method: 'GET', url: accepted.json().result_url, headers });
    if (result.statusCode !== 202) {
      expect(result.statusCode).toBe(200);
      return result.json();
    }
  }
  throw new Error('the full check still runs after 200 polls');
}

async function inspectOwnEngine(address: string): Promise<Verdict> {
  const response = await inspectClient(h.svc, inspectKey).inspect({ address, network: 'ETH' });
  expect(response.statusCode).toBe(200);
  const own = response.json().providers.service;
  expect(own.ok).toBe(true);
  return own.verdict;
}

async function x402(path: string): Promise<Verdict> {
  const response = await h.payingFetch()(path);
  expect(response.status).toBe(200);
  return (await response.json()) as Verdict;
}

describe('one verdict, whichever product asked', () => {
  it.each([
    ['a sanctioned address with code', true, SANCTIONED_CONTRACT],
    ['an unlisted address with code', true, UNLISTED_CONTRACT],
    ['an unlisted wallet', false, UNLISTED_WALLET],
  ])(
    '%s: every product shows is_contract %s and the same shared fields',
    async (_name, isContract, address) => {
      const cli = (await screenLine(h.svc.services.intel, rpcContractCodeReader({ rpcUrls: { ETH: rpcUrl } }), address, 'ETH')) as Verdict;
      const lightScreen = await v2Screen(address);
      const products: Record<string, Verdict> = {
        'V2 light screen': lightScreen,
        'x402 light screen': await x402(`/screen/ETH/${address}`),
        'CLI screen': cli,
        'V2 full check': await v2FullCheck(address),
        'x402 full check': await x402(`/check-address/ETH/${address}`),
        'inspect own engine': await inspectOwnEngine(address),
      };
      const reference = shared(lightScreen);
      expect((reference.verdict.smart_contract as { is_contract: boolean }).is_contract).toBe(isContract);
      for (const [product, body] of Object.entries(products)) expect({ product, ...shared(body) }).toEqual({ product, ...reference });
    },
    60_000,
  );
});
