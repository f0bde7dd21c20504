import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blockReaderContract } from '../../test/contracts/block-reader.contract.js';
import { startJsonServer, type JsonReply, type JsonRequest } from '../../test/support/json-server.js';
import { evmBlockReader } from './evm-block-ingester.js';

/**
 * The EVM JSON-RPC reader against recorded answers in the Ethereum execution API's formats
 * (test/fixtures/chain/evm-rpc-blocks.json): each JSON-RPC call answered from the recorded blocks,
 * receipts and logs, as a node holding that chain would.
 */

type Block = { number: string; hash: string; parentHash: string; timestamp: string; transactions: { hash: string }[] };
type Log = { blockNumber: string; topics: string[] };
type Recorded = { blocks: Block[]; receipts: Record<string, unknown[]>; logs: Log[]; decimals: string };
const recorded = JSON.parse(await readFile(join(import.meta.dirname, '../../test/fixtures/chain/evm-rpc-blocks.json'), 'utf8')) as Recorded;

const blockAt = (tag: unknown) => recorded.blocks.find((b) => b.number === tag) ?? null;

function answer(method: string, params: unknown[]): unknown {
  switch (method) {
    case 'eth_blockNumber':
      return recorded.blocks.at(-1)?.number;
    case 'eth_getBlockByNumber': {
      const block = blockAt(params[0]);
      return block && !params[1] ? { ...block, transactions: block.transactions.map((tx) => tx.hash) } : block;
    }
    case 'eth_getBlockReceipts':
      return recorded.receipts[String(Number(params[0]))] ?? null;
    case 'eth_getLogs': {
      const filter = params[0] as { fromBlock: string; toBlock: string; topics?: (string | null)[] };
      const topic = filter.topics?.[0];
      return recorded.logs.filter(
        (l) =>
          Number(l.blockNumber) >= Number(filter.fromBlock) &&
          Number(l.blockNumber) <= Number(filter.toBlock) &&
          (!topic || l.topics[0] === topic),
      );
    }
    case 'eth_call':
      return recorded.decimals;
    default:
      return undefined;
  }
}

function reply(request: JsonRequest): JsonReply {
  const { id, method, params } = request.body as { id: number; method: string; params: unknown[] };
  const result = answer(method, params);
  if (result === undefined)
    return { json: { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${method} does not exist` } } };
  return { json: { jsonrpc: '2.0', id, result } };
}

const [n, , later] = recorded.blocks as [Block, Block, Block];
const party = (last: string) => `0xfeed00000000000000000000000000000000000${last}`;

blockReaderContract('EVM JSON-RPC', async (prices) => {
  const server = await startJsonServer(reply);
  return {
    reader: evmBlockReader({ rpcUrl: server.url, network: 'ETH', prices }),
    first: 1000,
    parties: { A: party('a'), B: party('b'), C: party('c') },
    token: '0xfeed0000000000000000000000000000000000c0',
    blockHashes: recorded.blocks.map((b) => b.hash) as [string, string, string],
    parentOfFirst: n.parentHash,
    txHashes: [n.transactions[0]?.hash ?? '', n.transactions[1]?.hash ?? '', later.transactions[0]?.hash ?? ''],
    times: [Number(n.timestamp) * 1000, Number(later.timestamp) * 1000],
    close: () => server.close(),
  };
});
