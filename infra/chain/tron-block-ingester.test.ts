import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BusMessage, MessageBus } from '../../domain/ports/message-bus.port.js';
import type { Prices } from '../../domain/ports/prices.port.js';
import { chainPosition } from '../../domain/ports/transfer-graph.port.js';
import { graphMessageOf } from '../../processors/graph/transfer-messages.js';
import { startJsonServer, type JsonReply, type JsonRequest } from '../../test/support/json-server.js';
import { openLmdbGraphStore, type LmdbGraphStore } from './graph/lmdb-graph-store.js';
import { tronHexToBase58 } from './tron-address.js';
import { createTronBlockIngester } from './tron-block-ingester.js';

/**
 * The TRON block ingester against recorded answers of the TRON HTTP API (test/fixtures/tron/blocks.json:
 * the documented formats, made-up addresses), served on 127.0.0.1; what it publishes is folded into a
 * real LMDB graph store.
 */

type Block = { blockID: string; block_header: { raw_data: { number: number; parentHash: string } } };
type Recorded = { blocks: Block[]; infos: Record<string, unknown[]>; decimals: unknown };
const recorded = JSON.parse(await readFile(join(import.meta.dirname, '../../test/fixtures/tron/blocks.json'), 'utf8')) as Recorded;

const A = tronHexToBase58('41feed00000000000000000000000000000000000a');
const B = tronHexToBase58('41feed00000000000000000000000000000000000b');
const C = tronHexToBase58('41feed00000000000000000000000000000000000c');
const TOKEN = tronHexToBase58('41feed0000000000000000000000000000000000c0');

/** TRX at 0.10 USD, the made-up token at 1 USD. */
const prices: Prices = {
  quote: async ({ token }) =>
    token === null
      ? { symbol: 'TRX', usdMicrosPerUnit: 100_000, asOf: '2023-11-14', source: 'test' }
      : token === TOKEN
        ? { symbol: 'TKN', usdMicrosPerUnit: 1_000_000, asOf: '2023-11-14', source: 'test' }
        : null,
};

let dir: string;
let graph: LmdbGraphStore;
let chain: Block[];
let infos: Record<string, unknown[]>;
let server: Awaited<ReturnType<typeof startJsonServer>>;
const published: BusMessage[] = [];

function reply(request: JsonRequest): JsonReply {
  const body = (request.body ?? {}) as Record<string, number | string>;
  const at = (num: unknown) => chain.find((b) => b.block_header.raw_data.number === num);
  switch (request.url) {
    case '/wallet/getnowblock':
      return { json: chain.at(-1) };
    case '/wallet/getblockbynum':
      return { json: at(body.num) ?? {} };
    case '/wallet/getblockbylimitnext':
      return {
        json: {
          block: chain.filter(
            (b) => b.block_header.raw_data.number >= Number(body.startNum) && b.block_header.raw_data.number < Number(body.endNum),
          ),
        },
      };
    case '/wallet/gettransactioninfobyblocknum':
      return { json: infos[String(body.num)] ?? [] };
    case '/wallet/triggerconstantcontract':
      return { json: recorded.decimals };
    default:
      return { status: 404, text: 'not found' };
  }
}

const bus = {
  publish: async (_topic: string, messages: readonly BusMessage[]) => void published.push(...messages),
} as unknown as MessageBus;

async function foldPublished(): Promise<void> {
  for (const message of published.splice(0)) {
    const { type, data } = message.value as { type: string; data: unknown };
    const parsed = graphMessageOf(type, data);
    if (parsed.type === 'TransfersRead') await graph.fold([parsed.batch]);
    else await graph.revert(parsed.network, parsed.fromBlock);
  }
}

const ingester = () =>
  createTronBlockIngester({
    baseUrl: server.url,
    apiKey: 'test-key',
    fromBlock: 1000,
    batchBlocks: 100,
    pollMs: 1000,
    confirmations: 1,
    graph,
    bus,
    prices,
    log: () => undefined,
  });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tron-ingest-'));
  graph = await openLmdbGraphStore({ dir });
  chain = structuredClone(recorded.blocks);
  infos = structuredClone(recorded.infos);
  server = await startJsonServer(reply);
});
afterEach(async () => {
  await server.close();
  await graph.close();
  await rm(dir, { recursive: true, force: true });
});

describe('TRON block ingester (TRON HTTP API, recorded answers)', () => {
  it('publishes successful TRX transfers and TRC-20 Transfer logs, valued, in base58, at their chain positions', async () => {
    const follower = ingester();
    await follower.open();
    expect(await follower.syncOnce()).toBe(3);
    expect(follower.lastBlock).toBe(1002);
    expect(server.requests.every((r) => r.headers['tron-pro-api-key'] === 'test-key')).toBe(true);
    const batches = published.map((m) => graphMessageOf((m.value as { type: string }).type, (m.value as { data: unknown }).data));
    const transfers = batches.flatMap((b) => (b.type === 'TransfersRead' ? b.batch.transfers : []));
    expect(transfers).toEqual([
      {
        from: A,
        to: B,
        usdMicros: 250_000,
        at: 1700000000000,
        estimated: false,
        txHash: 'feed000000000000000000000000000000000000000000000000000000000001',
        position: chainPosition(1000, 'tx', 0),
      },
      {
        from: B,
        to: C,
        usdMicros: 10_000_000,
        at: 1700000000000,
        estimated: false,
        txHash: 'feed000000000000000000000000000000000000000000000000000000000002',
        position: chainPosition(1000, 'log', 0),
      },
      {
        from: C,
        to: A,
        usdMicros: 100_000,
        at: 1700000006000,
        estimated: false,
        txHash: 'feed000000000000000000000000000000000000000000000000000000000004',
        position: chainPosition(1002, 'tx', 0),
      },
    ]);
    expect(batches.every((b) => b.type === 'TransfersRead' && b.batch.network === 'TRON' && b.batch.finalThrough === 1001)).toBe(true);
    await foldPublished();
    expect((await graph.activity(C, 'TRON'))?.incoming).toMatchObject({ transfers: 1, usdMicros: 10_000_000, counterparties: 1 });
    expect((await graph.coverage('TRON')).datasets).toMatchObject([{ name: 'tron-http:TRON', transfers: 3, upToBlock: 1002 }]);
  });

  it('resumes after the last block it published, and reads nothing twice', async () => {
    const first = ingester();
    await first.open();
    await first.syncOnce();
    await foldPublished();
    const again = ingester();
    await again.open();
    expect(again.lastBlock).toBe(1002);
    expect(await again.syncOnce()).toBe(0);
    expect(published).toEqual([]);
  });

  it('undoes a reorganised block: the orphaned transfer leaves the graph, the new branch is folded', async () => {
    const follower = ingester();
    await follower.open();
    await follower.syncOnce();
    await foldPublished();
    // Block 1002 is replaced by another one (no transfer), and 1003 follows it with a transfer A → C.
    const fork = {
      ...structuredClone(chain[2]!),
      blockID: '00000000000003eabb00000000000000000000000000000000000000000000b2',
      transactions: [],
    };
    const next = structuredClone(chain[2]!);
    next.blockID = '00000000000003ebbb00000000000000000000000000000000000000000000b3';
    next.block_header.raw_data = { ...next.block_header.raw_data, number: 1003, parentHash: fork.blockID };
    const tx = (
      next as unknown as { transactions: { txID: string; raw_data: { contract: { parameter: { value: Record<string, unknown> } }[] } }[] }
    ).transactions[0]!;
    tx.txID = 'feed000000000000000000000000000000000000000000000000000000000005';
    tx.raw_data.contract[0]!.parameter.value = {
      amount: 3_000_000,
      owner_address: '41feed00000000000000000000000000000000000a',
      to_address: '41feed00000000000000000000000000000000000c',
    };
    chain = [chain[0]!, chain[1]!, fork, next];
    infos = {
      ...infos,
      '1002': [],
      '1003': [{ id: tx.txID, blockNumber: 1003, blockTimeStamp: 1700000009000, receipt: { net_usage: 268 } }],
    };
    await follower.syncOnce();
    await foldPublished();
    expect((await graph.activity(A, 'TRON'))?.incoming.transfers ?? 0).toBe(0);
    expect((await graph.activity(C, 'TRON'))?.incoming).toMatchObject({ transfers: 2, usdMicros: 10_300_000 });
  });

  it('fails a range whose transaction infos are of another block (the chain moved between the calls)', async () => {
    infos['1002'] = [{ id: 'feed0000000000000000000000000000000000000000000000000000000000ff', blockNumber: 1002, receipt: {} }];
    const follower = ingester();
    await follower.open();
    await expect(follower.syncOnce()).rejects.toThrow(/block 1002 changed while it was read/);
    expect(follower.lastBlock).toBe(999);
  });

  it('fails on an HTTP error without moving its position', async () => {
    const follower = ingester();
    await follower.open();
    await server.close();
    server = await startJsonServer(() => ({ status: 503, text: 'busy' }));
    const broken = createTronBlockIngester({
      baseUrl: server.url,
      fromBlock: 1000,
      batchBlocks: 10,
      pollMs: 1000,
      confirmations: 1,
      graph,
      bus,
      prices,
      log: () => undefined,
    });
    await broken.open();
    await expect(broken.syncOnce()).rejects.toThrow(/HTTP 503/);
    expect(broken.lastBlock).toBe(999);
  });
});
