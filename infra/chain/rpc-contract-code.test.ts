import { createTestClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../../test/helpers/made-up-addresses.js';
import { startAnvil, type Anvil } from '../../test/support/chain/anvil.js';
import { freePort } from '../../test/support/processes.js';
import { rpcContractCodeReader } from './rpc-contract-code.js';

/** eth_getCode against a local anvil chain: code placed with anvil_setCode at a made-up address. */
let anvil: Anvil;
const contract = madeUpEvmAddress('code-contract') as `0x${string}`;
const wallet = madeUpEvmAddress('code-wallet');

describe('eth_getCode contract reader', () => {
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 });
    const test = createTestClient({ mode: 'anvil', chain: foundry, transport: http(anvil.rpcUrl) });
    await test.setCode({ address: contract, bytecode: '0x6080604052600080fd' });
  }, 30_000);
  afterAll(() => anvil?.stop());

  it('answers from the chain on configured networks, null elsewhere', async () => {
    const reader = rpcContractCodeReader({ rpcUrls: { ETH: anvil.rpcUrl } });
    expect(await reader.isContract(contract, 'ETH')).toBe(true);
    expect(await reader.isContract(wallet, 'ETH')).toBe(false);
    expect(await reader.isContract(contract, 'BSC')).toBeNull();
    expect(await reader.isContract('TKtCN1d3N3HCgXwhrU6vkb2V2ebqUA8N7T', 'TRON')).toBeNull();
  });

  it('caches answers for the TTL, and an unreachable node is null, not an error', async () => {
    let clock = 0;
    const reader = rpcContractCodeReader({ rpcUrls: { ETH: anvil.rpcUrl }, cacheTtlMs: 1_000, now: () => clock });
    expect(await reader.isContract(wallet, 'ETH')).toBe(false);
    const test = createTestClient({ mode: 'anvil', chain: foundry, transport: http(anvil.rpcUrl) });
    await test.setCode({ address: wallet as `0x${string}`, bytecode: '0x00' });
    expect(await reader.isContract(wallet, 'ETH')).toBe(false); // cached
    clock = 1_001;
    expect(await reader.isContract(wallet, 'ETH')).toBe(true);
    const down = rpcContractCodeReader({ rpcUrls: { ETH: `http://127.0.0.1:${await freePort()}` }, timeoutMs: 500 });
    expect(await down.isContract(contract, 'ETH')).toBeNull();
  });
});
