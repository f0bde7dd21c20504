import { createPublicClient, createTestClient, createWalletClient, http, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeHeaderJson } from '../../domain/x402/x402-wire.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { devAccount } from '../support/chain/anvil.js';
import { testUsdcAbi } from '../support/chain/test-usdc.js';
import { startX402Harness, USDC, type X402Harness } from '../support/x402-harness.js';
import { signPayment } from '../support/x402-payloads.js';

/**
 * Gas griefing: a payer holding exactly one call's price sends many valid proofs at once. Each proof is
 * valid on its own, but only one can be settled; the others must be refused before our gas wallet
 * broadcasts a settlement that would revert (and cost us its gas). Counted by the gas wallet's nonce.
 */
const BURST = 10;
const GAS_WALLET = devAccount(1).address;

let h: X402Harness;
beforeAll(async () => {
  h = await startX402Harness();
});
afterAll(() => h?.close());

async function payerHolding(amount: bigint): Promise<LocalAccount> {
  const payer = privateKeyToAccount(generatePrivateKey());
  const transport = http(h.anvil.rpcUrl);
  const hash = await createWalletClient({ account: devAccount(9), transport }).writeContract({
    address: USDC,
    abi: testUsdcAbi,
    functionName: 'mint',
    args: [payer.address, amount],
    chain: null,
  });
  await createPublicClient({ transport }).waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return payer;
}

const sentByGasWallet = () =>
  createPublicClient({ transport: http(h.anvil.rpcUrl) }).getTransactionCount({ address: GAS_WALLET, blockTag: 'pending' });

/** BURST proofs of one payer for one light screen each, sent at once: the status of each answer. */
async function burst(payer: LocalAccount, tag: string): Promise<number[]> {
  const terms = h.svc.services.x402.app!.deps.terms;
  const proofs = await Promise.all(Array.from({ length: BURST }, () => signPayment(payer, terms)));
  const responses = await Promise.all(
    proofs.map((proof, i) =>
      fetch(`${h.url}/screen/ETH/${madeUpEvmAddress(`grief-${tag}-${i}`)}`, { headers: { 'x-payment': encodeHeaderJson(proof) } }),
    ),
  );
  return responses.map((r) => r.status).sort();
}

describe('x402 gas griefing: concurrent proofs of a payer who can pay for one call', () => {
  it('instant blocks: 1 settled, the other 9 refused (402) and never broadcast, in every burst', async () => {
    for (let round = 0; round < 3; round++) {
      const payer = await payerHolding(100_000n);
      const before = await sentByGasWallet();
      expect(await burst(payer, `instant-${round}`)).toEqual([200, ...Array(BURST - 1).fill(402)]);
      expect(await sentByGasWallet()).toBe(before + 1);
      expect(await h.balance(payer.address)).toBe(0n);
    }
  });

  it('1 s blocks (the first settlement still pending when the others are decided): 1 broadcast, no revert', async () => {
    const chain = createTestClient({ mode: 'anvil', transport: http(h.anvil.rpcUrl) });
    const payer = await payerHolding(100_000n);
    const before = await sentByGasWallet();
    await chain.setAutomine(false);
    await chain.setIntervalMining({ interval: 1 });
    try {
      expect(await burst(payer, 'interval')).toEqual([200, ...Array(BURST - 1).fill(402)]);
    } finally {
      await chain.setIntervalMining({ interval: 0 });
      await chain.setAutomine(true);
    }
    expect(await sentByGasWallet()).toBe(before + 1);
    expect(await h.balance(payer.address)).toBe(0n);
  });

  it('a payer who can pay for two gets both settled, concurrently', async () => {
    const payer = await payerHolding(200_000n);
    const before = await sentByGasWallet();
    const terms = h.svc.services.x402.app!.deps.terms;
    const proofs = await Promise.all([signPayment(payer, terms), signPayment(payer, terms)]);
    const statuses = await Promise.all(
      proofs.map(
        async (proof, i) =>
          (await fetch(`${h.url}/screen/ETH/${madeUpEvmAddress(`grief-two-${i}`)}`, { headers: { 'x-payment': encodeHeaderJson(proof) } }))
            .status,
      ),
    );
    expect(statuses).toEqual([200, 200]);
    expect(await sentByGasWallet()).toBe(before + 2);
  });
});
