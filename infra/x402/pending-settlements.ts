import { type Address, type Hex, type PublicClient } from 'viem';
import type { Clock } from '../../domain/ports/clock.port.js';
import { fail } from '../../domain/shared/errors.js';
import type { PaymentPayload } from '../../domain/x402/x402-wire.js';
import { eip3009Abi, firstLine } from './chain-reader.js';
import { CallRefused, type Admission } from './gas-wallet.js';

/** Payers tracked before entries whose authorization expired are swept from every payer. */
const SWEEP_AT = 1000;

interface InFlight {
  readonly amount: bigint;
  readonly validBefore: bigint;
  hash: Hex | null;
}

/**
 * The settlements our gas wallet has broadcast (or is broadcasting) that may not be mined yet, per payer of
 * one token. A payer's balance on chain does not show them until they are mined, so N proofs of a payer
 * holding one call's price all pass verification; admitting a settlement only when the balance covers it
 * plus every settlement of that payer still in flight keeps the wallet from broadcasting ones that revert
 * (whose gas we would pay). It runs inside the gas wallet's queue, so admissions are decided one at a time.
 *
 * Exact about mined ones: the balance is read at block B, and an in-flight settlement counts only while it
 * has no receipt at or before B (once mined, the balance shows it). An entry leaves when its settlement's
 * receipt is seen, when it was never broadcast, or once its authorization expired (it can no longer move funds).
 */
export function createPendingSettlements(options: { client: PublicClient; asset: Address; clock: Clock }) {
  const { client } = options;
  const byPayer = new Map<string, Set<InFlight>>();

  const forget = (payer: string, entry: InFlight) => {
    const entries = byPayer.get(payer);
    entries?.delete(entry);
    if (entries?.size === 0) byPayer.delete(payer);
  };
  const expired = (entry: InFlight, nowSeconds: bigint) => entry.validBefore <= nowSeconds;

  function sweep(nowSeconds: bigint) {
    for (const [payer, entries] of byPayer) for (const entry of entries) if (expired(entry, nowSeconds)) forget(payer, entry);
  }

  async function minedBy(hash: Hex, block: bigint): Promise<boolean> {
    const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
    return receipt !== null && receipt.blockNumber <= block;
  }

  const balanceAt = (holder: Address, blockNumber: bigint) =>
    client.readContract({ address: options.asset, abi: eip3009Abi, functionName: 'balanceOf', args: [holder], blockNumber });

  return {
    /** The admission of one settlement of `payment` (see GasWallet.submit); also `settled()` once its receipt is known. */
    admissionFor(payment: PaymentPayload): Admission & { settled(): void } {
      const { from, value, validBefore } = payment.payload.authorization;
      const payer = from.toLowerCase();
      let entry: InFlight | null = null;
      return {
        async admit() {
          const nowSeconds = BigInt(Math.floor(options.clock.now().getTime() / 1000));
          if (byPayer.size > SWEEP_AT) sweep(nowSeconds);
          // the entries first, then the block: one removed meanwhile was mined before the block read
          const inFlight = [...(byPayer.get(payer) ?? [])];
          let promised = 0n;
          let balance: bigint;
          try {
            const block = await client.getBlockNumber({ cacheTime: 0 });
            const [held, mined] = await Promise.all([
              balanceAt(from as Address, block),
              Promise.all(inFlight.map((e) => (e.hash ? minedBy(e.hash, block) : Promise.resolve(false)))),
            ]);
            balance = held;
            inFlight.forEach((e, i) => {
              if (mined[i] || expired(e, nowSeconds)) forget(payer, e);
              else promised += e.amount;
            });
          } catch (error) {
            throw fail('backend_unavailable', `the chain RPC did not answer: ${firstLine(error)}`, { broadcast: false });
          }
          if (balance < promised + BigInt(value)) {
            throw new CallRefused(
              `transfer amount exceeds balance: the payer holds ${balance} base units, ${promised} of them promised to settlements in flight`,
            );
          }
          entry = { amount: BigInt(value), validBefore: BigInt(validBefore), hash: null };
          const entries = byPayer.get(payer) ?? new Set<InFlight>();
          byPayer.set(payer, entries.add(entry));
        },
        sent(hash) {
          if (entry) entry.hash = hash;
        },
        dropped() {
          if (entry) forget(payer, entry);
        },
        settled() {
          if (entry) forget(payer, entry);
        },
      };
    },
    /** Payers with settlements in flight (for tests and metrics). */
    size: () => byPayer.size,
  };
}

export type PendingSettlements = ReturnType<typeof createPendingSettlements>;
