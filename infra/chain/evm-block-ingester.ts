import { createPublicClient, erc20Abi, http, parseAbiItem, toHex, zeroAddress, type Address, type Hash, type PublicClient } from 'viem';
import type { BusMessage, MessageBus } from '../../domain/ports/message-bus.port.js';
import type { Prices } from '../../domain/ports/prices.port.js';
import { valueInMicros } from '../../domain/ports/prices.port.js';
import { chainPosition, type GraphTransfer, type TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import type { Network } from '../../domain/shared/network.js';
import { blocksRevertedMessage, TRANSFERS_TOPIC, transfersReadMessages } from '../../processors/graph/transfer-messages.js';
import { BoundedMap } from './graph/bounded-map.js';
import { chainFollower, type BlockReader, type ChainFollower, type ReadBlocks } from './chain-follower.js';

/**
 * Reads native and ERC-20 transfers from any EVM JSON-RPC, block by block, and publishes them to the graph
 * pipeline (processors/graph): the native value of every successful transaction with a recipient, and
 * every ERC-20 `Transfer` log (three topics: ERC-721 transfers, with four, are not value). Mints and burns
 * (the zero address) are not transfers between holders and are left out. Each transfer is valued at its
 * block's time with the Prices port; a token without a price counts, unvalued. Following the head,
 * reorganisations and the saved position are chain-follower.ts's.
 */

const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
/** Token decimals asked once per token, for the tokens seen lately. */
const DECIMALS_CACHE = 10_000;

export interface IngesterOptions {
  readonly rpcUrl: string;
  readonly network: Network;
  readonly fromBlock: number;
  readonly batchBlocks: number;
  readonly pollMs: number;
  readonly confirmations: number;
  readonly graph: TransferGraphStore;
  readonly bus: MessageBus;
  readonly prices: Prices;
  readonly log: (line: string) => void;
}

interface ReceiptStatus {
  readonly transactionHash: Hash;
  readonly status: string;
}

export function createEvmBlockIngester(options: IngesterOptions): ChainFollower {
  return chainFollower({
    name: `rpc:${options.network}`,
    caveat: `indexed from a JSON-RPC (${new URL(options.rpcUrl).host}) from block ${options.fromBlock}`,
    network: options.network,
    fromBlock: options.fromBlock,
    batchBlocks: options.batchBlocks,
    pollMs: options.pollMs,
    confirmations: options.confirmations,
    graph: options.graph,
    publish: (messages: readonly BusMessage[]) => options.bus.publish(TRANSFERS_TOPIC, messages),
    ...evmBlockReader(options),
    messages: { transfers: transfersReadMessages, reverted: blocksRevertedMessage },
    log: options.log,
  });
}

/** The JSON-RPC side of the ingester: the head, block hashes, and the value transfers of a block range. */
export function evmBlockReader(options: Pick<IngesterOptions, 'rpcUrl' | 'network' | 'prices'>): BlockReader {
  const client: PublicClient = createPublicClient({ transport: http(options.rpcUrl, { retryCount: 2, timeout: 10_000 }) });
  const decimals = new BoundedMap<string, number | null>(DECIMALS_CACHE);

  async function decimalsOf(token: Address): Promise<number | null> {
    let found = decimals.get(token);
    if (found === undefined) {
      found = await client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }).then(Number, () => null);
      decimals.set(token, found);
    }
    return found;
  }

  async function value(token: Address | null, amount: bigint, at: number): Promise<number | null> {
    const places = token === null ? 18 : await decimalsOf(token);
    if (places === null) return null;
    const quote = await options.prices.quote(
      { network: options.network, token: token === null ? null : token.toLowerCase() },
      new Date(at),
    );
    return quote ? valueInMicros(amount, places, quote) : null;
  }

  /** Statuses of a block's transactions: eth_getBlockReceipts in one call where the node has it, else one by one. */
  async function succeeded(block: bigint, hashes: readonly Hash[]): Promise<Set<string>> {
    const receipts = await client
      .request({ method: 'eth_getBlockReceipts' as never, params: [toHex(block)] as never })
      .then((r) => r as unknown as ReceiptStatus[] | null)
      .catch(() => null);
    if (receipts) return new Set(receipts.filter((r) => r.status === '0x1').map((r) => r.transactionHash));
    const ok = new Set<string>();
    for (const hash of hashes) if ((await client.getTransactionReceipt({ hash })).status === 'success') ok.add(hash);
    return ok;
  }

  const readBlocks: ReadBlocks = async (fromBlock, toBlock) => {
    const transfers: GraphTransfer[] = [];
    const blocks = new Map<bigint, { at: number; hash: string; parentHash: string }>();
    for (let number = BigInt(fromBlock); number <= BigInt(toBlock); number++) {
      const block = await client.getBlock({ blockNumber: number, includeTransactions: true });
      const at = Number(block.timestamp) * 1000;
      blocks.set(number, { at, hash: block.hash, parentHash: block.parentHash });
      const paying = block.transactions.filter((tx) => tx.to !== null && tx.value > 0n);
      const ok =
        paying.length > 0
          ? await succeeded(
              number,
              paying.map((tx) => tx.hash),
            )
          : new Set<string>();
      for (const tx of paying) {
        if (!ok.has(tx.hash) || tx.to === null) continue;
        const position = chainPosition(Number(number), 'tx', tx.transactionIndex);
        transfers.push({
          from: tx.from,
          to: tx.to,
          usdMicros: await value(null, tx.value, at),
          at,
          estimated: false,
          txHash: tx.hash,
          position,
        });
      }
    }
    const logs = await client.getLogs({ event: TRANSFER_EVENT, fromBlock: BigInt(fromBlock), toBlock: BigInt(toBlock), strict: true });
    for (const log of logs) {
      const block = blocks.get(log.blockNumber);
      // A log of another fork than the blocks read: the chain moved between the calls; the range is read again.
      if (!block || block.hash !== log.blockHash) throw new Error(`block ${log.blockNumber} changed while it was read`);
      const { from, to, value: amount } = log.args;
      if (log.topics.length !== 3 || from === zeroAddress || to === zeroAddress || amount === 0n) continue;
      const position = chainPosition(Number(log.blockNumber), 'log', log.logIndex);
      transfers.push({
        from,
        to,
        usdMicros: await value(log.address, amount, block.at),
        at: block.at,
        estimated: false,
        txHash: log.transactionHash,
        position,
      });
    }
    // In chain order (block, then native values, then logs), as the TRON reader hands them over.
    transfers.sort((a, b) => a.position - b.position);
    return { transfers, blocks: [...blocks].map(([number, b]) => ({ number: Number(number), hash: b.hash, parentHash: b.parentHash })) };
  };

  return {
    head: async () => Number(await client.getBlockNumber({ cacheTime: 0 })),
    blockHash: async (number) => (await client.getBlock({ blockNumber: BigInt(number) })).hash,
    readBlocks,
  };
}
