import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../../../test/helpers/made-up-addresses.js';
import {
  writeTokensCsv,
  writeTokenTransfersCsv,
  writeTokenTransfersParquet,
  writeTransactionsCsv,
  type TokenTransferRow,
} from '../../../test/support/bigquery-exports.js';
import { startTestService, type TestService } from '../../../test/support/test-service.js';
import { parseArgs } from '../../cli/args.js';
import { runVerb } from '../../cli/verbs.js';

/**
 * `data import-transfers` on exports in the public schema of BigQuery's crypto_ethereum tables, with
 * made-up addresses: CSV and Parquet read alike, failed transactions, mints and zero amounts left out,
 * tokens valued with the decimals of the tokens export, a second run resumes past the end (nothing twice).
 */
const a = (name: string) => madeUpEvmAddress(`bq-import:${name}`).toLowerCase();
const [alice, bob, carol, dave] = ['alice', 'bob', 'carol', 'dave'].map(a) as [string, string, string, string];
const TOKEN = a('token');
const ZERO = '0x0000000000000000000000000000000000000000';
const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const AT = '2024-03-01T12:00:00Z';

const tokenTransfers: TokenTransferRow[] = [
  { token: TOKEN, from: alice, to: bob, value: '2500000', tx: tx(1), logIndex: 0, block: 100, at: AT },
  { token: TOKEN, from: alice, to: bob, value: '500000', tx: tx(2), logIndex: 3, block: 101, at: AT },
  { token: TOKEN, from: ZERO, to: carol, value: '9000000', tx: tx(3), logIndex: 1, block: 101, at: AT },
  { token: a('unlisted'), from: carol, to: dave, value: '7', tx: tx(4), logIndex: 0, block: 102, at: AT },
];

let dir: string;
let service: TestService;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bq-import-'));
  await writeTokensCsv(join(dir, 'tokens.csv'), [{ address: TOKEN, symbol: 'TUSD', decimals: 6 }]);
  await writeTokenTransfersCsv(join(dir, 'token_transfers-000000000000.csv'), tokenTransfers);
  await writeTokenTransfersParquet(join(dir, 'token_transfers-000000000000.parquet'), tokenTransfers);
  await writeTransactionsCsv(join(dir, 'transactions-000000000000.csv'), [
    { hash: tx(10), index: 0, from: dave, to: alice, value: '1000000000000000000', status: 1, block: 100, at: AT },
    { hash: tx(11), index: 1, from: dave, to: carol, value: '2000000000000000000', status: 0, block: 100, at: AT },
    { hash: tx(12), index: 2, from: dave, to: null, value: '5', status: 1, block: 100, at: AT },
    { hash: tx(13), index: 0, from: bob, to: carol, value: '3000000000000000000', status: null, block: 99, at: AT },
  ]);
  service = await startTestService({ SVC_PRICE_PINS: JSON.stringify([{ network: 'ETH', token: TOKEN, symbol: 'TUSD', usd: 1 }]) });
}, 60_000);
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

const silent = { progress: () => ({ update: () => undefined, stop: () => undefined }) };
const importVerb = (...files: string[]) =>
  runVerb(
    service.services,
    parseArgs(['data', 'import-transfers', ...files.map((f) => join(dir, f)), '--network', 'ETH']),
    silent as never,
  );

describe('data import-transfers (BigQuery crypto_ethereum exports)', () => {
  it('folds token transfers and native transfers with their USD values, and leaves out what is not a transfer', async () => {
    const result = await importVerb('tokens.csv', 'token_transfers-000000000000.csv', 'transactions-000000000000.csv');
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatchObject({
      files: [
        { table: 'token_transfers', rows: 4, transfers: 3, skipped: 1, resumed_at: 0 },
        { table: 'transactions', rows: 4, transfers: 2, skipped: 2, resumed_at: 0 },
      ],
    });
    const graph = service.services.fullCheck.graph;
    expect(await graph.activity(bob, 'ETH')).toMatchObject({ incoming: { transfers: 2, usdMicros: 3_000_000, counterparties: 1 } });
    expect((await graph.activity(dave, 'ETH'))?.incoming).toMatchObject({ transfers: 1, unpricedTransfers: 1, usdMicros: 0 });
    expect((await graph.activity(alice, 'ETH'))?.incoming.usdMicros).toBeGreaterThan(1000e6);
    const bobIn = await graph.flows(bob, 'ETH', 'in', 10);
    expect([bobIn.counterparty(0), bobIn.sampleTx(0)]).toEqual([alice, tx(1)]);
    expect((await graph.coverage('ETH')).datasets.map((d) => [d.name, d.transfers]).sort()).toEqual([
      ['bigquery:token_transfers', 3],
      ['bigquery:transactions', 2],
    ]);
  });

  it('resumes where a file stopped, and reads the same rows from Parquet without counting them twice', async () => {
    const again = await importVerb('token_transfers-000000000000.csv');
    expect(again.output).toMatchObject({ files: [{ rows: 4, transfers: 0, resumed_at: 4 }] });
    const parquet = await importVerb('tokens.csv', 'token_transfers-000000000000.parquet');
    expect(parquet.output).toMatchObject({ files: [{ table: 'token_transfers', rows: 4, transfers: 3, resumed_at: 0 }] });
    expect(await service.services.fullCheck.graph.size('ETH')).toBe(5);
    expect(await service.services.fullCheck.graph.activity(bob, 'ETH')).toMatchObject({ incoming: { transfers: 2, usdMicros: 3_000_000 } });
  });

  it('refuses a file that is not one of the tables', async () => {
    await writeFile(join(dir, 'other.csv'), 'address,label\n0x1,x\n');
    await expect(importVerb('other.csv')).rejects.toMatchObject({ code: 'bad_request' });
  });
});
