import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blockReaderContract } from '../../test/contracts/block-reader.contract.js';
import { startJsonServer, type JsonReply, type JsonRequest } from '../../test/support/json-server.js';
import { tronHexToBase58 } from './tron-address.js';
import { tronBlockReader } from './tron-block-ingester.js';

/** The TRON HTTP reader against recorded answers of java-tron's /wallet/* API (test/fixtures/tron/blocks.json). */

type Block = { blockID: string; block_header: { raw_data: { number: number; parentHash: string; timestamp: number } } };
type Recorded = { blocks: Block[]; infos: Record<string, unknown[]>; decimals: unknown };
const recorded = JSON.parse(await readFile(join(import.meta.dirname, '../../test/fixtures/tron/blocks.json'), 'utf8')) as Recorded;

function reply(request: JsonRequest): JsonReply {
  const body = (request.body ?? {}) as Record<string, number>;
  const numberOf = (b: Block) => b.block_header.raw_data.number;
  switch (request.url) {
    case '/wallet/getnowblock':
      return { json: recorded.blocks.at(-1) };
    case '/wallet/getblockbynum':
      return { json: recorded.blocks.find((b) => numberOf(b) === body.num) ?? {} };
    case '/wallet/getblockbylimitnext':
      return { json: { block: recorded.blocks.filter((b) => numberOf(b) >= Number(body.startNum) && numberOf(b) < Number(body.endNum)) } };
    case '/wallet/gettransactioninfobyblocknum':
      return { json: recorded.infos[String(body.num)] ?? [] };
    case '/wallet/triggerconstantcontract':
      return { json: recorded.decimals };
    default:
      return { status: 404, text: 'not found' };
  }
}

const party = (last: string) => tronHexToBase58(`41feed00000000000000000000000000000000000${last}`);
const [n, , later] = recorded.blocks as [Block, Block, Block];

blockReaderContract('TRON HTTP', async (prices) => {
  const server = await startJsonServer(reply);
  return {
    reader: tronBlockReader({ baseUrl: server.url, prices }),
    first: 1000,
    parties: { A: party('a'), B: party('b'), C: party('c') },
    token: tronHexToBase58('41feed0000000000000000000000000000000000c0'),
    blockHashes: recorded.blocks.map((b) => b.blockID) as [string, string, string],
    parentOfFirst: n.block_header.raw_data.parentHash,
    txHashes: [
      'feed000000000000000000000000000000000000000000000000000000000001',
      'feed000000000000000000000000000000000000000000000000000000000002',
      'feed000000000000000000000000000000000000000000000000000000000004',
    ],
    times: [n.block_header.raw_data.timestamp, later.block_header.raw_data.timestamp],
    close: () => server.close(),
  };
});
