import { afterEach, describe, expect, it } from 'vitest';
import type { Prices } from '../../domain/ports/prices.port.js';
import { chainPosition, type GraphTransfer } from '../../domain/ports/transfer-graph.port.js';
import { normalizeAddress } from '../../domain/shared/address.js';
import type { BlockReader } from '../../infra/chain/chain-follower.js';

/**
 * One suite for every BlockReader adapter (EVM JSON-RPC, TRON HTTP), each against recorded answers of its
 * API in the official format, served on 127.0.0.1. Every recording holds the same made-up chain:
 *
 *   block N:   2.5 native units A → B (transaction 0); 10 tokens (6 decimals) B → C (the block's log 0);
 *              a failed transfer C → A; and what the chain's format allows besides (a mint, a reverted log)
 *   block N+1: empty
 *   block N+2: 1 native unit C → A (transaction 0)
 *
 * Native units are priced at 0.10 USD and the token at 1 USD; the recording names the parties, hashes and
 * times in its chain's own forms. Addresses are compared as the graph stores them (normalizeAddress: EVM
 * lowercased), since an EVM adapter may hand them over checksummed.
 */

export interface RecordedChain {
  readonly reader: BlockReader;
  /** N. */
  readonly first: number;
  readonly parties: { readonly A: string; readonly B: string; readonly C: string };
  /** The token contract, as the adapter hands it to the Prices port. */
  readonly token: string;
  /** Hashes of blocks N, N+1, N+2, and N's parent. */
  readonly blockHashes: readonly [string, string, string];
  readonly parentOfFirst: string;
  /** Transactions of the native transfer of N, the token transfer of N, the native transfer of N+2. */
  readonly txHashes: readonly [string, string, string];
  /** Block times of N and N+2, epoch milliseconds. */
  readonly times: readonly [number, number];
  close(): Promise<void>;
}

const NATIVE_USD_MICROS = 100_000;
const TOKEN_USD_MICROS = 1_000_000;

const normalized = (transfers: readonly GraphTransfer[]): GraphTransfer[] =>
  transfers.map((t) => ({ ...t, from: normalizeAddress(t.from), to: normalizeAddress(t.to) }));

export function blockReaderContract(name: string, open: (prices: Prices) => Promise<RecordedChain>): void {
  describe(`BlockReader contract: ${name}`, () => {
    const opened: RecordedChain[] = [];
    const recorded = async (options: { tokenPriced?: boolean } = {}) => {
      let token = '';
      const prices: Prices = {
        quote: async ({ token: asked }) => {
          if (asked === null) return { symbol: 'NATIVE', usdMicrosPerUnit: NATIVE_USD_MICROS, asOf: '2023-11-14', source: 'contract' };
          return options.tokenPriced !== false && asked === token
            ? { symbol: 'TKN', usdMicrosPerUnit: TOKEN_USD_MICROS, asOf: '2023-11-14', source: 'contract' }
            : null;
        },
      };
      const chain = await open(prices);
      token = chain.token;
      opened.push(chain);
      return chain;
    };
    afterEach(async () => {
      for (const chain of opened.splice(0)) await chain.close();
    });

    const expectedTransfers = (chain: RecordedChain, tokenUsd: number | null): GraphTransfer[] => {
      const [A, B, C] = [chain.parties.A, chain.parties.B, chain.parties.C].map(normalizeAddress) as [string, string, string];
      const [nativeTx, tokenTx, laterTx] = chain.txHashes;
      const [at, laterAt] = chain.times;
      return [
        { from: A, to: B, usdMicros: 250_000, at, estimated: false, txHash: nativeTx, position: chainPosition(chain.first, 'tx', 0) },
        { from: B, to: C, usdMicros: tokenUsd, at, estimated: false, txHash: tokenTx, position: chainPosition(chain.first, 'log', 0) },
        {
          from: C,
          to: A,
          usdMicros: 100_000,
          at: laterAt,
          estimated: false,
          txHash: laterTx,
          position: chainPosition(chain.first + 2, 'tx', 0),
        },
      ];
    };

    it('names the head and each block by the hash that reading it gives', async () => {
      const chain = await recorded();
      expect(await chain.reader.head()).toBe(chain.first + 2);
      const { blocks } = await chain.reader.readBlocks(chain.first, chain.first + 2);
      for (const [i, hash] of chain.blockHashes.entries()) {
        expect(await chain.reader.blockHash(chain.first + i)).toBe(hash);
        expect(blocks[i]?.hash).toBe(hash);
      }
    });

    it('reads the value transfers of a range in chain order, valued, at their positions; failed ones and mints left out', async () => {
      const chain = await recorded();
      const { transfers, blocks } = await chain.reader.readBlocks(chain.first, chain.first + 2);
      expect(normalized(transfers)).toEqual(expectedTransfers(chain, 10_000_000));
      expect(blocks.map((b) => b.number)).toEqual([chain.first, chain.first + 1, chain.first + 2]);
      // Each block follows the one before it: the follower finds a fork by these links.
      expect(blocks.map((b) => b.parentHash)).toEqual([chain.parentOfFirst, chain.blockHashes[0], chain.blockHashes[1]]);
    });

    it('counts a token without a price, unvalued', async () => {
      const chain = await recorded({ tokenPriced: false });
      const { transfers } = await chain.reader.readBlocks(chain.first, chain.first + 2);
      expect(normalized(transfers)).toEqual(expectedTransfers(chain, null));
    });

    it('reads a part of the chain alone, and the same range twice alike', async () => {
      const chain = await recorded();
      const tail = await chain.reader.readBlocks(chain.first + 1, chain.first + 2);
      expect(normalized(tail.transfers)).toEqual(expectedTransfers(chain, 10_000_000).slice(2));
      expect(tail.blocks.map((b) => b.number)).toEqual([chain.first + 1, chain.first + 2]);
      expect(await chain.reader.readBlocks(chain.first + 1, chain.first + 2)).toEqual(tail);
      expect((await chain.reader.readBlocks(chain.first + 1, chain.first + 1)).transfers).toEqual([]);
    });
  });
}
