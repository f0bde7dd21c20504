import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { devAccount } from '../support/chain/anvil.js';
import { startReferenceFacilitator } from '../support/reference-facilitator.js';
import { NETWORK, startX402Harness, type X402Harness } from '../support/x402-harness.js';

/**
 * X402_FACILITATOR=http against the reference facilitator (what hosted facilitators run), on the same
 * anvil chain, with our own on-chain checks in front of it (X402_RPC_URL set).
 */
let h: X402Harness;
let facilitator: Awaited<ReturnType<typeof startReferenceFacilitator>>;
beforeAll(async () => {
  h = await startX402Harness({
    env: { X402_FACILITATOR: 'http' },
    lateEnv: async (anvil) => {
      facilitator = await startReferenceFacilitator({ rpcUrl: anvil.rpcUrl, chainId: NETWORK.chainId, account: devAccount(3) });
      return { X402_FACILITATOR_URL: facilitator.url };
    },
  });
});
afterAll(async () => {
  await h?.close();
  await facilitator?.close();
});

describe('x402 with a hosted facilitator over HTTP (the reference implementation)', () => {
  it('a paid screen is verified and settled by the facilitator, on chain', async () => {
    const payeeBefore = await h.balance(h.payTo);
    const response = await h.payingFetch()(`/screen/BSC/${madeUpEvmAddress('hosted')}`);
    expect(response.status).toBe(200);
    const receipt = h.receiptOf(response);
    expect(receipt).toMatchObject({ success: true, network: 'eip155:84532', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await h.balance(h.payTo)).toBe(payeeBefore + 100_000n);
    expect(facilitator.requests).toEqual(['POST /verify', 'POST /settle']);
  });

  it('our on-chain checks refuse an unfunded payer before the facilitator is asked', async () => {
    const asked = facilitator.requests.length;
    const response = await h.payingFetch(privateKeyToAccount(generatePrivateKey()))(`/screen/BSC/${madeUpEvmAddress('hosted-broke')}`);
    expect(response.status).toBe(402);
    expect((await response.json()).error.code).toBe('payment_invalid');
    expect(facilitator.requests.length).toBe(asked);
  });
});
