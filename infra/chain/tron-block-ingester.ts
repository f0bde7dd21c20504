import { decodeAbiParameters, type Hex } from 'viem';
import { z } from 'zod';
import type { BusMessage, MessageBus } from '../../domain/ports/message-bus.port.js';
import type { Prices } from '../../domain/ports/prices.port.js';
import { valueInMicros } from '../../domain/ports/prices.port.js';
import { chainPosition, type GraphTransfer, type TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import { blocksRevertedMessage, TRANSFERS_TOPIC, transfersReadMessages } from '../../processors/graph/transfer-messages.js';
import { BoundedMap } from './graph/bounded-map.js';
import { chainFollower, type BlockReader, type BlockRef, type ChainFollower, type ReadBlocks } from './chain-follower.js';
import { tronHexToBase58 } from './tron-address.js';
import { TRANSFER_TOPIC } from './tron-http-decoder.js';

/**
 * Reads TRX and TRC-20 transfers from the TRON HTTP API (a java-tron full node, or TronGrid), block by
 * block, and publishes them to the graph pipeline (processors/graph), as the EVM ingester does for
 * JSON-RPC: `/wallet/getnowblock` (the head), `/wallet/getblockbylimitnext` (up to 100 blocks with their
 * transactions: TRX moved by a successful TransferContract), `/wallet/gettransactioninfobyblocknum` (each
 * transaction's result and its TRC-20 `Transfer` logs, numbered in block order) and `/wallet/getblockbynum`
 * (a block's id, to find a fork). A token's decimals come from `/wallet/triggerconstantcontract`; a token
 * without decimals or a price counts, unvalued. Addresses leave as base58check.
 */

/** getblockbylimitnext answers at most 100 blocks a call. */
const BLOCKS_PER_CALL = 100;
/** Token decimals asked once per token, for the tokens seen lately. */
const DECIMALS_CACHE = 10_000;

const contractSchema = z.object({
  type: z.string(),
  parameter: z.object({ value: z.record(z.string(), z.unknown()) }),
});
const transactionSchema = z.object({
  txID: z.string(),
  ret: z.array(z.object({ contractRet: z.string().optional() })).optional(),
  raw_data: z.object({ contract: z.array(contractSchema).min(1) }),
});
const blockSchema = z.object({
  blockID: z.string(),
  block_header: z.object({
    raw_data: z.object({ number: z.number().int().nonnegative(), timestamp: z.number().int().nonnegative(), parentHash: z.string() }),
  }),
  transactions: z.array(transactionSchema).optional(),
});
const infoSchema = z.object({
  id: z.string(),
  blockNumber: z.number().int().nonnegative(),
  receipt: z.object({ result: z.string().optional() }).optional(),
  result: z.string().optional(),
  log: z.array(z.object({ address: z.string(), topics: z.array(z.string()).optional(), data: z.string().optional() })).optional(),
});

type Block = z.infer<typeof blockSchema>;
type Info = z.infer<typeof infoSchema>;

export interface TronIngesterOptions {
  readonly baseUrl: string;
  /** TronGrid's `TRON-PRO-API-KEY`, when the endpoint wants one. */
  readonly apiKey?: string;
  readonly fromBlock: number;
  readonly batchBlocks: number;
  readonly pollMs: number;
  readonly confirmations: number;
  readonly graph: TransferGraphStore;
  readonly bus: MessageBus;
  readonly prices: Prices;
  readonly log: (line: string) => void;
  readonly timeoutMs?: number;
}

type Value = (token: string | null, amount: bigint, at: number) => Promise<number | null>;

export function createTronBlockIngester(options: TronIngesterOptions): ChainFollower {
  return chainFollower({
    name: 'tron-http:TRON',
    caveat: `indexed from the TRON HTTP API (${new URL(options.baseUrl).host}) from block ${options.fromBlock}`,
    network: 'TRON',
    fromBlock: options.fromBlock,
    batchBlocks: options.batchBlocks,
    pollMs: options.pollMs,
    confirmations: options.confirmations,
    graph: options.graph,
    publish: (messages: readonly BusMessage[]) => options.bus.publish(TRANSFERS_TOPIC, messages),
    ...tronBlockReader(options),
    messages: { transfers: transfersReadMessages, reverted: blocksRevertedMessage },
    log: options.log,
  });
}

/** The TRON HTTP side of the ingester: the head, block ids, and the value transfers of a block range. */
export function tronBlockReader(options: Pick<TronIngesterOptions, 'baseUrl' | 'apiKey' | 'timeoutMs' | 'prices'>): BlockReader {
  const api = tronApi(options);
  const value = valuer(api, options.prices);
  const readBlocks: ReadBlocks = async (fromBlock, toBlock) => {
    const transfers: GraphTransfer[] = [];
    const blocks: BlockRef[] = [];
    for (let start = fromBlock; start <= toBlock; start += BLOCKS_PER_CALL) {
      for (const block of await api.blocks(start, Math.min(toBlock, start + BLOCKS_PER_CALL - 1))) {
        const { number, parentHash } = block.block_header.raw_data;
        blocks.push({ number, hash: block.blockID, parentHash });
        transfers.push(...(await trxTransfers(block, value)), ...(await trc20Transfers(block, await api.infos(number), value)));
      }
    }
    return { transfers, blocks };
  };
  return { head: api.head, blockHash: api.blockHash, readBlocks };
}

/** USD micros of an amount of TRX (6 decimals) or of a TRC-20 token (its decimals asked once, for the tokens seen lately). */
function valuer(api: ReturnType<typeof tronApi>, prices: Prices): Value {
  const decimals = new BoundedMap<string, number | null>(DECIMALS_CACHE);
  return async (token, amount, at) => {
    let places = token === null ? 6 : decimals.get(token);
    if (places === undefined && token !== null) {
      places = await api.decimals(token);
      decimals.set(token, places);
    }
    if (places === null || places === undefined) return null;
    const quote = await prices.quote({ network: 'TRON', token }, new Date(at));
    return quote ? valueInMicros(amount, places, quote) : null;
  };
}

/** TRX moved by the block's successful TransferContracts, at (block, tx, its index in the block). */
async function trxTransfers(block: Block, value: Value): Promise<GraphTransfer[]> {
  const { number, timestamp: at } = block.block_header.raw_data;
  const transfers: GraphTransfer[] = [];
  for (const [index, tx] of (block.transactions ?? []).entries()) {
    const contract = tx.raw_data.contract[0];
    const params = contract?.parameter.value ?? {};
    const amount = typeof params.amount === 'number' || typeof params.amount === 'string' ? BigInt(params.amount) : 0n;
    const ok = (tx.ret?.[0]?.contractRet ?? 'SUCCESS') === 'SUCCESS';
    if (contract?.type !== 'TransferContract' || !ok || amount <= 0n) continue;
    const [from, to] = [params.owner_address, params.to_address].map((hex) =>
      typeof hex === 'string' && hex ? tronHexToBase58(hex) : null,
    );
    if (!from || !to) continue;
    const position = chainPosition(number, 'tx', index);
    transfers.push({ from, to, usdMicros: await value(null, amount, at), at, estimated: false, txHash: tx.txID, position });
  }
  return transfers;
}

/**
 * TRC-20 `Transfer` logs of the block's successful transactions, at (block, log, its index among the
 * block's logs). Infos of transactions the block read does not have: the chain moved between the calls.
 */
async function trc20Transfers(block: Block, infos: readonly Info[], value: Value): Promise<GraphTransfer[]> {
  const { number, timestamp: at } = block.block_header.raw_data;
  const ids = new Set((block.transactions ?? []).map((tx) => tx.txID));
  const transfers: GraphTransfer[] = [];
  let logIndex = 0;
  for (const info of infos) {
    if (info.blockNumber !== number || !ids.has(info.id)) throw new Error(`block ${number} changed while it was read`);
    const ok = (info.receipt?.result ?? 'SUCCESS') === 'SUCCESS' && info.result !== 'FAILED';
    for (const log of info.log ?? []) {
      const position = chainPosition(number, 'log', logIndex++);
      const topics = (log.topics ?? []).map((t) => t.replace(/^0x/, '').toLowerCase());
      const data = (log.data ?? '').replace(/^0x/, '');
      if (!ok || topics.length !== 3 || topics[0] !== TRANSFER_TOPIC || data.length !== 64) continue;
      const amount = BigInt(`0x${data}`);
      // Mints and burns (the zero address) are not transfers between holders.
      if (/^0*$/.test(topics[1] ?? '') || /^0*$/.test(topics[2] ?? '') || amount === 0n) continue;
      const [from, to] = [topics[1] ?? '', topics[2] ?? ''].map(tronHexToBase58) as [string, string];
      const usdMicros = await value(tronHexToBase58(log.address), amount, at);
      transfers.push({ from, to, usdMicros, at, estimated: false, txHash: info.id, position });
    }
  }
  return transfers;
}

/** The calls of the TRON HTTP API the ingester makes, each answer checked against its documented shape. */
function tronApi(options: Pick<TronIngesterOptions, 'baseUrl' | 'apiKey' | 'timeoutMs'>) {
  const base = options.baseUrl.replace(/\/+$/, '');
  async function post<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(options.apiKey ? { 'TRON-PRO-API-KEY': options.apiKey } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    if (!response.ok) throw new Error(`the TRON API answered HTTP ${response.status} to ${path}`);
    const answer = schema.safeParse(await response.json());
    if (!answer.success) throw new Error(`unexpected answer to ${path}: ${answer.error.issues[0]?.message ?? 'invalid'}`);
    return answer.data;
  }
  const blocksSchema = z.object({ block: z.array(blockSchema).optional() });
  // An empty block's info list is `[]` on a full node and `{}` on some gateways.
  const infosSchema = z.union([z.array(infoSchema), z.object({}).transform((): Info[] => [])]);
  const constantSchema = z.object({
    constant_result: z.array(z.string()).optional(),
    result: z.object({ result: z.boolean().optional() }).optional(),
  });
  return {
    head: async () => (await post('/wallet/getnowblock', {}, blockSchema)).block_header.raw_data.number,
    blockHash: async (num: number) => (await post('/wallet/getblockbynum', { num }, blockSchema)).blockID,
    /** Blocks `from` to `to` inclusive, in order; a block missing from the answer fails the range. */
    async blocks(from: number, to: number): Promise<Block[]> {
      const answer = await post('/wallet/getblockbylimitnext', { startNum: from, endNum: to + 1 }, blocksSchema);
      const blocks = [...(answer.block ?? [])].sort((a, b) => a.block_header.raw_data.number - b.block_header.raw_data.number);
      if (blocks.length !== to - from + 1 || blocks.some((b, i) => b.block_header.raw_data.number !== from + i))
        throw new Error(`the TRON API answered ${blocks.length} of blocks ${from}–${to}`);
      return blocks;
    },
    infos: (num: number) => post('/wallet/gettransactioninfobyblocknum', { num }, infosSchema),
    /** A TRC-20 token's decimals (a constant call of decimals()); null when the contract does not answer. */
    async decimals(token: string): Promise<number | null> {
      const answer = await post(
        '/wallet/triggerconstantcontract',
        { owner_address: token, contract_address: token, function_selector: 'decimals()', parameter: '', visible: true },
        constantSchema,
      ).catch(() => null);
      const word = answer?.constant_result?.[0];
      if (!word || answer?.result?.result === false) return null;
      try {
        return Number(decodeAbiParameters([{ type: 'uint8' }], `0x${word}` as Hex)[0]);
      } catch {
        return null;
      }
    },
  };
}
