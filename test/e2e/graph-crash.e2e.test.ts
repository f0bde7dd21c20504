import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLmdbGraphStore } from '../../infra/chain/graph/lmdb-graph-store.js';
import { TokenDecimals, transferOfRow } from '../../infra/chain/import/bigquery-rows.js';
import { exportChunks } from '../../infra/chain/import/export-files.js';
import { createSnapshotPrices } from '../../infra/prices/snapshot-prices.js';
import { snapshotOf } from '../contracts/transfer-graph-store.contract.js';
import { writeTransactionsCsv } from '../support/bigquery-exports.js';
import { spawnTsx, stop } from '../support/processes.js';
import { generateSyntheticGraph, syntheticAddress } from '../synthetic/synthetic-graph.js';

/**
 * kill -9 during ingestion loses and doubles nothing: a service importing an export through the graph
 * pipeline (importer → bus → graph-fold → LMDB) is killed at random points, started again until it is done,
 * and its graph equals a fold from scratch of the same rows, address by address.
 */
const ADDRESSES = 1500;
const ROWS = 24_000;
const KILLS = 3;

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'graph-crash-'));
  file = join(dir, 'transactions-000000000000.csv');
  const graph = generateSyntheticGraph({ addresses: ADDRESSES, transfers: ROWS, seed: 7 });
  await writeTransactionsCsv(
    file,
    Array.from({ length: ROWS }, (_, i) => ({
      hash: `0x${i.toString(16).padStart(64, '0')}`,
      index: i % 100,
      from: syntheticAddress(graph.from[i]!),
      to: syntheticAddress(graph.to[i]!),
      value: String(BigInt(Math.round(graph.usdMicros[i]!)) * 10n ** 6n),
      status: 1,
      block: 1_000_000 + Math.floor(i / 100),
      at: new Date(graph.at[i]!).toISOString(),
    })),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the import child until it prints "done", or kills it once it has read past `killAfter` rows. */
async function run(dataDir: string, killAfter: number | null): Promise<'killed' | 'done'> {
  const { child, output } = await spawnTsx(
    'test/e2e/graph/import-crash-child.ts',
    { GRAPH_CRASH_DATA_DIR: dataDir, GRAPH_CRASH_FILE: file },
    /started/,
  );
  return new Promise((resolve, reject) => {
    const check = () => {
      const text = output.join('');
      if (text.includes('done\n')) return void stop(child).then(() => resolve('done'), reject);
      const rows = [...text.matchAll(/progress (\d+)/g)].map((m) => Number(m[1])).at(-1) ?? 0;
      if (killAfter !== null && rows >= killAfter) {
        child.kill('SIGKILL');
        child.once('exit', () => resolve('killed'));
        return;
      }
      setTimeout(check, 5);
    };
    child.removeAllListeners('exit');
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL'
        ? undefined
        : output.join('').includes('done')
          ? undefined
          : reject(new Error(`child exited with ${code}:\n${output.join('')}`)),
    );
    check();
  });
}

describe('kill -9 during ingestion through the graph pipeline', () => {
  it('loses and doubles nothing: the graph equals a fold from scratch', async () => {
    const dataDir = join(dir, 'data');
    const killPoints = Array.from({ length: KILLS }, (_, k) => Math.floor(((k + 1) / (KILLS + 1)) * ROWS * (0.8 + 0.4 * Math.random())));
    let kills = 0;
    for (const point of killPoints) if ((await run(dataDir, point)) === 'killed') kills += 1;
    expect(await run(dataDir, null)).toBe('done');
    expect(kills).toBeGreaterThan(0);

    const prices = createSnapshotPrices();
    const reference = await openLmdbGraphStore({ dir: join(dir, 'reference') });
    const context = { network: 'ETH' as const, prices, tokens: new TokenDecimals('ETH', prices) };
    for await (const chunk of exportChunks(file, 0)) {
      const transfers = [];
      for (const row of chunk.rows) {
        const transfer = await transferOfRow('transactions', row, context);
        if (transfer) transfers.push(transfer);
      }
      await reference.fold([
        { network: 'ETH', dataset: 'bigquery:transactions', caveat: null, positions: 'chain', finalThrough: null, transfers },
      ]);
    }
    const crashed = await openLmdbGraphStore({ dir: join(dataDir, 'graph') });
    try {
      expect(await crashed.size('ETH')).toBe(await reference.size('ETH'));
      const addresses = Array.from({ length: ADDRESSES }, (_, i) => syntheticAddress(i));
      expect(await snapshotOf(crashed, addresses)).toEqual(await snapshotOf(reference, addresses));
    } finally {
      await Promise.all([crashed.close(), reference.close()]);
    }
  }, 600_000);
});
