import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../../../test/helpers/made-up-addresses.js';
import { writeTokensCsv, writeTokenTransfersCsv, writeTransactionsCsv } from '../../../test/support/bigquery-exports.js';
import { startTestService, type TestService } from '../../../test/support/test-service.js';
import { snapshotOf } from '../../../test/contracts/transfer-graph-store.contract.js';
import { parseArgs } from '../../cli/args.js';
import { runVerb } from '../../cli/verbs.js';

/**
 * `data import-transfers --bulk` on exports in the public schema (made-up addresses): the graph it builds
 * answers as the pipeline's import of the same files does, and the pipeline counts none of its blocks again.
 */
const a = (name: string) => madeUpEvmAddress(`bq-bulk:${name}`).toLowerCase();
const [alice, bob, carol, dave] = ['alice', 'bob', 'carol', 'dave'].map(a) as [string, string, string, string];
const TOKEN = a('token');
const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const AT = '2024-03-01T12:00:00Z';
const pins = { SVC_PRICE_PINS: JSON.stringify([{ network: 'ETH', token: TOKEN, symbol: 'TUSD', usd: 1 }]) };
const FILES = ['tokens.csv', 'token_transfers-000000000000.csv', 'transactions-000000000000.csv'];

let dir: string;
let piped: TestService;
let bulk: TestService;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bq-bulk-'));
  await writeTokensCsv(join(dir, 'tokens.csv'), [{ address: TOKEN, symbol: 'TUSD', decimals: 6 }]);
  await writeTokenTransfersCsv(join(dir, FILES[1] ?? ''), [
    { token: TOKEN, from: alice, to: bob, value: '2500000', tx: tx(1), logIndex: 0, block: 100, at: AT },
    { token: TOKEN, from: alice, to: bob, value: '500000', tx: tx(2), logIndex: 3, block: 101, at: AT },
    { token: TOKEN, from: bob, to: carol, value: '9000000', tx: tx(3), logIndex: 1, block: 101, at: AT },
    { token: a('unlisted'), from: carol, to: dave, value: '7', tx: tx(4), logIndex: 0, block: 102, at: AT },
  ]);
  await writeTransactionsCsv(join(dir, FILES[2] ?? ''), [
    { hash: tx(10), index: 0, from: dave, to: alice, value: '1000000000000000000', status: 1, block: 100, at: AT },
    { hash: tx(13), index: 0, from: bob, to: carol, value: '3000000000000000000', status: null, block: 99, at: AT },
  ]);
  [piped, bulk] = await Promise.all([startTestService(pins), startTestService(pins)]);
}, 60_000);
afterAll(async () => {
  await Promise.all([piped?.close(), bulk?.close()]);
  await rm(dir, { recursive: true, force: true });
});

const silent = { progress: () => ({ update: () => undefined, stop: () => undefined }) };
const run = (service: TestService, files: readonly string[], ...flags: string[]) =>
  runVerb(service.services, parseArgs(['data', 'import-transfers', ...files.map((f) => join(dir, f)), ...flags]), silent as never);

describe('data import-transfers --bulk', () => {
  it('builds the graph the pipeline import of the same files builds', async () => {
    expect((await run(piped, FILES)).exitCode).toBe(0);
    const loaded = await run(bulk, FILES, '--bulk', '--work-dir', dir, '--memory-mb', '64');
    expect(loaded.output).toMatchObject({
      bulk: { transfers: 6, addresses: 4, blocks: { native: [99, 100], token: [100, 102] } },
      files: [
        { table: 'token_transfers', rows: 4, skipped: 0 },
        { table: 'transactions', rows: 2, skipped: 0 },
      ],
    });
    expect((loaded.output as { bulk: { peakRssMiB: number } }).bulk.peakRssMiB).toBeGreaterThan(16);
    const addresses = [alice, bob, carol, dave];
    expect(await snapshotOf(bulk.services.fullCheck.graph, addresses)).toEqual(await snapshotOf(piped.services.fullCheck.graph, addresses));
    expect((await bulk.services.fullCheck.graph.coverage('ETH')).datasets).toEqual(
      (await piped.services.fullCheck.graph.coverage('ETH')).datasets,
    );
  });

  it('the pipeline then counts none of its blocks again, and a second bulk load is refused', async () => {
    const again = await run(bulk, FILES.slice(0, 2));
    expect(again.output).toMatchObject({ files: [{ table: 'token_transfers', rows: 4, transfers: 4 }] });
    expect(await bulk.services.fullCheck.graph.size('ETH')).toBe(6);
    await expect(run(bulk, FILES, '--bulk')).rejects.toMatchObject({ code: 'invalid_state' });
  });

  it('refuses a memory budget that is not a whole number of MiB, at least 16', async () => {
    for (const budget of ['8', '1.5', 'lots'])
      await expect(run(piped, FILES, '--bulk', '--memory-mb', budget)).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('refuses a file given twice', async () => {
    await expect(run(piped, [FILES[1] ?? '', FILES[1] ?? ''], '--bulk')).rejects.toMatchObject({ code: 'bad_request' });
  });
});
