import { present } from '../../domain/shared/present.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createPublicClient, erc20Abi, http, parseAbiItem, zeroAddress, type Address, type PublicClient } from 'viem';
import type { Prices } from '../../domain/ports/prices.port.js';
import { valueInMicros } from '../../domain/ports/prices.port.js';
import type { Network } from '../../domain/shared/network.js';
import { FramedLog } from '../embedded/framed-log.js';
import type { EmbeddedTransferIndex } from './embedded-transfer-index.js';
import type { TransferInput } from './transfer-graph.js';

/**
 * Indexes native and ERC-20 transfers from any EVM JSON-RPC, block by block, into the embedded transfer
 * index: native value of every successful transaction with a recipient, and every ERC-20 `Transfer`
 * log (three topics: ERC-721 transfers, with four, are not value). Mints and burns (the zero address)
 * are not transfers between holders and are left out. Each transfer is valued at its block's time with
 * the Prices port; a token without a price counts, unvalued.
 *
 * Durable and resumable: each indexed batch of blocks is one record of an append-only log under the data
 * directory, replayed into the index at start; indexing resumes after the last recorded block. Blocks
 * are read `confirmations` behind the head (reorganisations deeper than that are not undone).
 */

const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export interface IngestedBatch {
  readonly fromBlock: number;
  readonly toBlock: number;
  readonly transfers: readonly TransferInput[];
}

export interface EvmBlockIngester {
  /** The last block indexed (-1 before any). */
  readonly lastBlock: number;
  /** Opens the log, replays it into the index; call once before syncing. */
  open(): Promise<void>;
  /** Indexes up to the confirmed head (at most `batchBlocks` per batch); resolves with the batches indexed. */
  syncOnce(): Promise<IngestedBatch[]>;
  /** Syncs every `pollMs` until stopped. */
  start(): void;
  stop(): Promise<void>;
}

export interface IngesterOptions {
  readonly rpcUrl: string;
  readonly network: Network;
  readonly fromBlock: number;
  readonly batchBlocks: number;
  readonly pollMs: number;
  readonly confirmations: number;
  readonly dataDir: string;
  readonly fsync: boolean;
  readonly index: EmbeddedTransferIndex;
  readonly prices: Prices;
  readonly log: (line: string) => void;
}

export function createEvmBlockIngester(options: IngesterOptions): EvmBlockIngester {
  const client: PublicClient = createPublicClient({ transport: http(options.rpcUrl, { retryCount: 2, timeout: 10_000 }) });
  const dataset = {
    name: `rpc:${options.network}`,
    caveat: `indexed from a JSON-RPC (${new URL(options.rpcUrl).host}) from block ${options.fromBlock}`,
    kind: 'ingested_blocks' as const,
  };
  const decimals = new Map<string, number | null>();
  let ingestLog: FramedLog | null = null;
  let lastBlock = options.fromBlock - 1;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  async function decimalsOf(token: Address): Promise<number | null> {
    if (!decimals.has(token)) {
      const read = await client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }).then(Number, () => null);
      decimals.set(token, read);
    }
    return present(decimals.get(token), 'decimals.get(token)');
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

  async function readBatch(fromBlock: number, toBlock: number): Promise<IngestedBatch> {
    const transfers: TransferInput[] = [];
    const times = new Map<bigint, number>();
    for (let number = BigInt(fromBlock); number <= BigInt(toBlock); number++) {
      const block = await client.getBlock({ blockNumber: number, includeTransactions: true });
      const at = Number(block.timestamp) * 1000;
      times.set(number, at);
      for (const tx of block.transactions) {
        if (tx.to === null || tx.value === 0n) continue;
        const receipt = await client.getTransactionReceipt({ hash: tx.hash });
        if (receipt.status !== 'success') continue;
        transfers.push({ from: tx.from, to: tx.to, usdMicros: await value(null, tx.value, at), at, txHash: tx.hash });
      }
    }
    const logs = await client.getLogs({ event: TRANSFER_EVENT, fromBlock: BigInt(fromBlock), toBlock: BigInt(toBlock), strict: true });
    for (const log of logs) {
      const { from, to, value: amount } = log.args;
      if (log.topics.length !== 3 || from === zeroAddress || to === zeroAddress || amount === 0n) continue;
      const at = times.get(log.blockNumber) ?? Number((await client.getBlock({ blockNumber: log.blockNumber })).timestamp) * 1000;
      transfers.push({ from, to, usdMicros: await value(log.address, amount, at), at, txHash: log.transactionHash });
    }
    return { fromBlock, toBlock, transfers };
  }

  function remember(batch: IngestedBatch) {
    options.index.add(options.network, { ...dataset, upToBlock: batch.toBlock }, batch.transfers);
    lastBlock = batch.toBlock;
  }

  async function syncOnce(): Promise<IngestedBatch[]> {
    const head = Number(await client.getBlockNumber()) - options.confirmations;
    const done: IngestedBatch[] = [];
    while (lastBlock < head && !stopped) {
      const fromBlock = lastBlock + 1;
      const toBlock = Math.min(head, fromBlock + options.batchBlocks - 1);
      const batch = await readBatch(fromBlock, toBlock);
      await present(ingestLog, 'ingestLog').append([Buffer.from(JSON.stringify(batch))]);
      remember(batch);
      done.push(batch);
    }
    return done;
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = syncOnce()
        .catch((error: unknown) => options.log(`ingest ${options.network}: ${error instanceof Error ? error.message : String(error)}`))
        .finally(schedule);
    }, options.pollMs);
    timer.unref?.();
  };

  return {
    get lastBlock() {
      return lastBlock;
    },
    async open() {
      const dir = join(options.dataDir, 'chain');
      await mkdir(dir, { recursive: true });
      const opened = await FramedLog.open(join(dir, `ingest-${options.network}.log`), { fsync: options.fsync });
      ingestLog = opened.log;
      for (const record of opened.records) remember(JSON.parse(record.payload.toString('utf8')) as IngestedBatch);
      if (opened.records.length > 0) options.log(`ingest ${options.network}: resumed after block ${lastBlock}`);
    },
    syncOnce,
    start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await ingestLog?.close();
      ingestLog = null;
    },
  };
}
