import { present } from '../../domain/shared/present.js';
import {
  BaseError,
  createPublicClient,
  erc20Abi,
  http,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Hash,
  type PublicClient,
} from 'viem';
import type { DecodedTransaction, TransferLeg } from '../../domain/kyt/decoded-transaction.js';
import { NATIVE_COIN } from '../../domain/kyt/decoded-transaction.js';
import { fail, isServiceError } from '../../domain/shared/errors.js';
import type { Chain } from '../../domain/shared/network.js';

/**
 * Decodes an EVM transaction over JSON-RPC with viem: the transaction (signer, native value), its
 * receipt (status, every ERC-20 `Transfer` log) and its block (time). A log counts as an ERC-20
 * transfer when it has the `Transfer(address,address,uint256)` topic, two indexed addresses and a
 * 32-byte value (ERC-721 transfers index the token id as a third topic and are not value). Each
 * token's decimals and symbol are read from the contract; a contract that does not answer leaves them
 * unknown (the leg is then not valued).
 */

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const ADDRESS_WORD = /^0x0{24}[0-9a-f]{40}$/;
const META_CACHE_SIZE = 10_000;

export function evmTransactionDecoder(options: { readonly chain: Chain; readonly rpcUrl: string; readonly timeoutMs: number }) {
  const client: PublicClient = createPublicClient({
    transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 1, retryDelay: 50 }),
  });

  /** A token's decimals and symbol hardly ever change: remembered (bounded) instead of asked per check. */
  const metas = new Map<string, { symbol: string | null; decimals: number | null }>();
  async function tokenMeta(token: `0x${string}`): Promise<{ symbol: string | null; decimals: number | null }> {
    const known = metas.get(token);
    if (known) return known;
    const [decimals, symbol] = await Promise.all([
      client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }).catch(() => null),
      client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }).catch(() => null),
    ]);
    const meta = { decimals: decimals === null ? null : Number(decimals), symbol: symbol || null };
    // Only a complete answer is kept: a node that failed once is asked again next time.
    if (meta.decimals !== null && meta.symbol !== null) {
      if (metas.size >= META_CACHE_SIZE) metas.delete(present(metas.keys().next().value, 'the cache is full, so not empty'));
      metas.set(token, meta);
    }
    return meta;
  }

  async function read(hash: Hash) {
    try {
      const [transaction, receipt] = await Promise.allSettled([client.getTransaction({ hash }), client.getTransactionReceipt({ hash })]);
      if (transaction.status === 'rejected') throw transaction.reason;
      if (receipt.status === 'rejected') {
        if (receipt.reason instanceof TransactionReceiptNotFoundError)
          throw fail('tx_not_found', `transaction ${hash} on ${options.chain} is not mined yet`);
        throw receipt.reason;
      }
      const block = await client.getBlock({ blockNumber: receipt.value.blockNumber });
      return { transaction: transaction.value, receipt: receipt.value, block };
    } catch (error) {
      if (isServiceError(error)) throw error;
      if (error instanceof TransactionNotFoundError) throw fail('tx_not_found', `no transaction ${hash} on ${options.chain}`);
      const reason = error instanceof BaseError ? error.shortMessage : String(error);
      throw fail('backend_unavailable', `the ${options.chain} RPC endpoint failed: ${reason}`);
    }
  }

  return {
    async decode(txHash: string): Promise<DecodedTransaction> {
      const { transaction, receipt, block } = await read(txHash as Hash);
      const success = receipt.status === 'success';
      const signer = transaction.from.toLowerCase();
      const to = (transaction.to ?? receipt.contractAddress ?? null)?.toLowerCase() ?? null;
      const legs: TransferLeg[] = [];
      if (success && transaction.value > 0n && to) {
        const { symbol, decimals } = NATIVE_COIN[options.chain];
        legs.push({
          kind: 'native',
          token: null,
          symbol,
          decimals,
          from: signer,
          to,
          amount: transaction.value.toString(),
          logIndex: null,
        });
      }
      const transfers = success
        ? receipt.logs.filter(
            (log) =>
              log.topics.length === 3 &&
              log.topics[0] === TRANSFER_TOPIC &&
              ADDRESS_WORD.test(present(log.topics[1], 'the filter checked three topics')) &&
              ADDRESS_WORD.test(present(log.topics[2], 'the filter checked three topics')) &&
              log.data.length === 66,
          )
        : [];
      const tokens = [...new Set(transfers.map((log) => log.address.toLowerCase() as `0x${string}`))];
      const metas = new Map(await Promise.all(tokens.map(async (token) => [token, await tokenMeta(token)] as const)));
      for (const log of transfers) {
        const token = log.address.toLowerCase() as `0x${string}`;
        const meta = present(metas.get(token), 'every token of the transfers was looked up');
        legs.push({
          kind: 'token',
          token,
          symbol: meta.symbol,
          decimals: meta.decimals,
          from: `0x${present(log.topics[1], 'the filter checked three topics').slice(26)}`,
          to: `0x${present(log.topics[2], 'the filter checked three topics').slice(26)}`,
          amount: BigInt(log.data).toString(),
          logIndex: log.logIndex,
        });
      }
      return {
        chain: options.chain,
        txHash: transaction.hash.toLowerCase(),
        blockNumber: Number(receipt.blockNumber),
        blockTime: new Date(Number(block.timestamp) * 1000).toISOString(),
        success,
        signer,
        to,
        legs,
      };
    },
  };
}
