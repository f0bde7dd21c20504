import { createTestClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** POST /v2/screen with SVC_RPC_URL_ETH pointing at a local anvil chain: is_contract comes from eth_getCode. */
let anvil: Anvil;
let svc: TestService;
let key: string;
const contract = madeUpEvmAddress('screen-code-contract');
const wallet = madeUpEvmAddress('screen-code-wallet');

describe('smart_contract.is_contract from eth_getCode', () => {
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31337 });
    await createTestClient({ mode: 'anvil', chain: foundry, transport: http(anvil.rpcUrl) }).setCode({
      address: contract as `0x${string}`,
      bytecode: '0x6080604052600080fd',
    });
    svc = await startTestService({ SVC_RPC_URL_ETH: anvil.rpcUrl });
    ({ apiKey: key } = await svc.account({ depositUsd: 1 }));
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await anvil?.stop();
  });

  const screen = async (address: string, network: string) =>
    (
      await svc.app.inject({
        method: 'POST',
        url: '/v2/screen',
        headers: { authorization: `Bearer ${key}` },
        payload: { address, network },
      })
    ).json();

  it('code at the address on ETH: a contract, though no list knows it', async () => {
    const body = await screen(contract, 'ETH');
    expect(body.verdict.smart_contract).toMatchObject({ is_contract: true, token_contract: false });
    expect(body.coverage.data_available).toBe(false);
  });

  it('no code: not a contract; BSC has no RPC configured: the lists decide', async () => {
    expect((await screen(wallet, 'ETH')).verdict.smart_contract.is_contract).toBe(false);
    expect((await screen(contract, 'BSC')).verdict.smart_contract.is_contract).toBe(false);
  });
});
