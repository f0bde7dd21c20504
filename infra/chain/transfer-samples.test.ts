import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { madeUpTronAddress } from '../../test/helpers/made-up-addresses.js';
import { createSnapshotPrices } from '../prices/snapshot-prices.js';
import { openLmdbGraphStore } from './graph/lmdb-graph-store.js';
import { foldTransferSamples, loadTransferSamples, type TransferSample } from './transfer-samples.js';

const prices = createSnapshotPrices();
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const [t1, t2, t3] = ['one', 'two', 'three'].map((seed) => madeUpTronAddress(`samples:${seed}`)) as [string, string, string];
const JST = 'TCFLL5dx5ZJdKnWuesXxi1VPwjLVmWZZy9';

async function sourcesWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'samples-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('the transfer samples (made-up rows in the real formats)', () => {
  it('values each format honestly: priced, assumed (estimated) or unpriced; skips failed transfers', async () => {
    const dir = await sourcesWith({
      'tx-sample-eth-lazarus/LazarusTabularTxsMadeUp.csv':
        'block_time,from,to,total_eth\n2022-04-02T10:00:00+00:00,\\x00000000000000000000000000000000000000a1,\\x00000000000000000000000000000000000000b2,2\n2022-04-03T10:00:00+00:00,\\x00000000000000000000000000000000000000a1,\\xnot-an-address,1e-05\n',
      'tx-sample-tron/Large_JST_Transactions_MadeUp.csv': `fromAddress,contractAddress,toAddress,amount,dateTime,hash\n${t1},${JST},${t2},1000,1678104690000,${'ab'.repeat(32)}\n`,
      'tx-sample-tron/Transfers_MadeUp.csv': [
        'transaction_id,block,block_ts,from_address,to_address,confirmed,contractRet,quant,tokenAbbr',
        `${'01'.repeat(32)},1,2023/03/06 20:30:45,${t2},${t3},true,SUCCESS,100.000000000000000000,`,
        `${'02'.repeat(32)},2,2023/03/06 20:31:45,${t2},${t3},true,SUCCESS,23.270000,`,
        `${'03'.repeat(32)},3,2023/03/06 20:32:45,${t2},${t3},true,REVERT,5.000000000000000000,`,
      ].join('\n'),
    });
    const samples = await loadTransferSamples(dir, prices);
    const byName: Record<string, TransferSample> = Object.fromEntries(samples.map((s) => [s.name.split('/')[1], s]));
    expect(byName['LazarusTabularTxsMadeUp.csv']).toMatchObject({ network: 'ETH', skipped: 1 });
    expect(byName['LazarusTabularTxsMadeUp.csv']!.transfers).toEqual([
      {
        from: '0x00000000000000000000000000000000000000a1',
        to: '0x00000000000000000000000000000000000000b2',
        at: Date.parse('2022-04-02T10:00:00Z'),
        usdMicros: 2 * 3100e6,
        estimated: false,
        txHash: null,
        position: 0,
      },
    ]);
    expect(byName['Large_JST_Transactions_MadeUp.csv']!.transfers[0]).toMatchObject({
      usdMicros: 1000 * 27_000,
      estimated: false,
      txHash: 'ab'.repeat(32),
    });
    const tronscan = byName['Transfers_MadeUp.csv']!;
    expect(tronscan.skipped).toBe(1);
    expect(tronscan.transfers.map((t) => [t.usdMicros, t.estimated])).toEqual([
      [100 * 27_000, true],
      [null, false],
    ]);
  });
});

const REAL = resolve(process.env.SVC_SOURCES_DIR ?? '../shared/data');
const LAZARUS = '0x098b716b8aaf21512996dc57eb0615e2383e2f96';

describe.skipIf(!existsSync(join(REAL, 'tx-sample-tron')))(`the real transfer samples (${REAL}; skipped when absent)`, () => {
  it('loads every row of the four files and folds the Lazarus address with its counterparties, once', async () => {
    const samples = await loadTransferSamples(REAL, prices);
    expect(Object.fromEntries(samples.map((s) => [s.name, s.transfers.length + s.skipped]))).toEqual({
      'tx-sample-eth-lazarus/LazarusTabularTxs1322519.csv': 436,
      'tx-sample-tron/Large_JST_Transactions_20230307.csv': 100,
      'tx-sample-tron/Transfers_20230306.csv': 1011,
      'tx-sample-tron/Transfers_20230307.csv': 10_000,
    });
    const dir = await mkdtemp(join(tmpdir(), 'samples-graph-'));
    dirs.push(dir);
    const graph = await openLmdbGraphStore({ dir });
    try {
      expect(await foldTransferSamples(REAL, prices, graph)).toMatchObject({ files: 4 });
      const activity = await graph.activity(LAZARUS, 'ETH');
      expect(activity!.incoming.transfers).toBeGreaterThan(100);
      expect(activity!.outgoing.usdMicros).toBeGreaterThan(0);
      expect((await graph.coverage('TRON')).datasets.some((d) => d.caveat?.includes('unverified'))).toBe(true);
      // A start with the same files reads none of them again.
      expect(await foldTransferSamples(REAL, prices, graph)).toEqual({ files: 0, folded: 0 });
    } finally {
      await graph.close();
    }
  });
});
