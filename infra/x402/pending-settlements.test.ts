import type { PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../domain/shared/errors.js';
import { X402_NETWORKS, type X402Terms } from '../../domain/x402/x402-networks.js';
import { madeUpEvmAddress } from '../../test/helpers/made-up-addresses.js';
import { signPayment } from '../../test/support/x402-payloads.js';
import { CallRefused } from './gas-wallet.js';
import { createPendingSettlements } from './pending-settlements.js';

/**
 * The in-flight ledger against a scripted chain: what a node answers is the input (a real node on a
 * chain with block times, where a broadcast settlement is not in `latest` yet; anvil's estimates already
 * see pending transactions, so the e2e burst test cannot tell this ledger's work from the simulation's).
 */
const network = X402_NETWORKS['base-sepolia'];
const terms: X402Terms = { network, payTo: madeUpEvmAddress('ledger-payee') as `0x${string}`, maxTimeoutSeconds: 300 };
const payer = privateKeyToAccount(generatePrivateKey());
const NOW = Date.parse('2026-11-25T12:00:00Z');
const HASH = `0x${'aa'.repeat(32)}` as const;

function scriptedChain() {
  const chain = { block: 100n, balance: 100_000n, receipts: new Map<string, bigint>(), down: false };
  const client = {
    getBlockNumber: async () => {
      if (chain.down) throw new Error('connect ECONNREFUSED');
      return chain.block;
    },
    readContract: async () => chain.balance,
    getTransactionReceipt: async ({ hash }: { hash: string }) => {
      const block = chain.receipts.get(hash);
      if (block === undefined) throw new Error('receipt not found');
      return { blockNumber: block };
    },
  } as unknown as PublicClient;
  const ledger = createPendingSettlements({ client, asset: network.asset, clock: { now: () => new Date(NOW) } });
  return { chain, ledger };
}

const proof = (validForSeconds = 300) =>
  signPayment(payer, terms, { nowSeconds: NOW / 1000, validBefore: BigInt(NOW / 1000 + validForSeconds) });

async function refusal(admit: Promise<void>) {
  const error = await admit.then(
    () => null,
    (e: unknown) => e,
  );
  return error instanceof CallRefused ? 'refused' : isServiceError(error) ? `${error.code}:${String(error.details?.broadcast)}` : error;
}

describe('settlements in flight per payer', () => {
  it('a second settlement the balance cannot cover beside one in flight is refused; once the first is mined it no longer counts twice', async () => {
    const { chain, ledger } = scriptedChain();
    const first = ledger.admissionFor(await proof());
    await first.admit();
    first.sent(HASH);
    expect(await refusal(ledger.admissionFor(await proof()).admit())).toBe('refused');

    // mined in block 101, and the payer was topped up: the balance read at 101 shows the first settlement
    chain.block = 101n;
    chain.receipts.set(HASH, 101n);
    chain.balance = 100_000n;
    await ledger.admissionFor(await proof()).admit();
    expect(ledger.size()).toBe(1);
  });

  it('a settlement never broadcast (dropped), or settled, frees its amount; so does an expired authorization', async () => {
    const { ledger } = scriptedChain();
    const dropped = ledger.admissionFor(await proof());
    await dropped.admit();
    dropped.dropped();
    const settled = ledger.admissionFor(await proof());
    await settled.admit();
    settled.sent(HASH);
    settled.settled();
    const expiring = ledger.admissionFor(await proof(0));
    await expiring.admit();
    expiring.sent(`0x${'bb'.repeat(32)}`);
    await ledger.admissionFor(await proof()).admit();
  });

  it('an unreachable node refuses the admission as backend_unavailable, nothing broadcast', async () => {
    const { chain, ledger } = scriptedChain();
    chain.down = true;
    expect(await refusal(ledger.admissionFor(await proof()).admit())).toBe('backend_unavailable:false');
  });
});
