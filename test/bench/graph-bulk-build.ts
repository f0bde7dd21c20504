import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { BulkLoader } from '../../infra/chain/graph/bulk/bulk-load.js';
import { openLmdbGraphStore } from '../../infra/chain/graph/lmdb-graph-store.js';
import { openPostgresGraphStore } from '../../infra/postgres/pg-graph-store.js';
import { externalGraph, graphStoreEnv } from './graph-bench-store.js';
import type { SyntheticSource } from '../synthetic/synthetic-graph.js';
import { syntheticBatches } from './graph-synthetic-ingest.js';

/**
 * bench:graph's graph built by the bulk load instead of the pipeline: the first `count` transfers of the
 * source, into DATA_DIR/graph (infra/chain/graph/bulk, run files beside it), or with GRAPH_STORE=postgres into
 * this run's schema (infra/postgres/pg-graph-bulk.ts). Reports its stages on stderr
 * every 30 s, and what it took. `bulkBuildInChild` runs it in a process of its own (graph-bulk.child.ts),
 * so that its peak RSS is its own and the ingesting process's RSS is not the load's.
 */

export function bulkBuildInChild(dataDir: string, options: { addresses: number; transfers: number }, count: number): BulkFigures {
  const out = execFileSync(
    process.execPath,
    [
      '--max-old-space-size=3072',
      '--import',
      'tsx',
      'test/bench/graph-bulk.child.ts',
      dataDir,
      String(options.addresses),
      String(options.transfers),
      String(count),
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as BulkFigures;
}

export interface BulkFigures {
  readonly transfers: number;
  readonly seconds: number;
  readonly peakRss: number;
  /** The highest anonymous RSS seen at a progress report (LMDB's mapped file pages not counted). */
  readonly peakAnonRss: number;
  readonly pairs: number;
  /** Distinct addresses (what the address map and the node totals used to grow with). */
  readonly addresses: number;
  readonly runs: number;
  readonly load: string;
  /** CPU seconds of the loading process (what the wall clock waits on besides other processes). */
  readonly cpuSeconds: number;
}

/** The process's resident memory but the file pages it maps (LMDB's), which the OS may take back. Linux only, else 0. */
function anonymousRss(): number {
  const status = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '';
  return Number(/RssAnon:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** The store the service of this run opens (the same schema and super-node bound on PostgreSQL). */
async function openBenchStore(dataDir: string): Promise<BulkLoader & { close(): Promise<void> }> {
  if (!externalGraph()) return openLmdbGraphStore({ dir: join(dataDir, 'graph') });
  const bound = process.env.SVC_GRAPH_SUPER_NODE_BOUND;
  return openPostgresGraphStore({
    url: process.env.POSTGRES_URL ?? '',
    schema: graphStoreEnv().GRAPH_POSTGRES_SCHEMA,
    ...(bound ? { superNodeBound: Number(bound) } : {}),
  });
}

export async function bulkBuild(dataDir: string, source: SyntheticSource, count: number): Promise<BulkFigures> {
  const store = await openBenchStore(dataDir);
  const started = performance.now();
  let peakRss = process.memoryUsage().rss;
  let peakAnon = anonymousRss();
  let lastReport = started;
  let lastStage = '';
  const loadBefore = loadavg()[0]?.toFixed(1);
  try {
    const result = await store.bulkLoad({
      network: 'ETH',
      batches: syntheticBatches(source, count),
      workDir: dataDir,
      ...(process.env.BENCH_GRAPH_BULK_MEMORY_MB ? { memoryBytes: Number(process.env.BENCH_GRAPH_BULK_MEMORY_MB) * 1024 * 1024 } : {}),
      onProgress: ({ stage, done, rss }) => {
        peakRss = Math.max(peakRss, rss);
        peakAnon = Math.max(peakAnon, anonymousRss());
        if (stage === lastStage && performance.now() - lastReport < 30_000) return;
        lastStage = stage;
        lastReport = performance.now();
        const seconds = Math.round((lastReport - started) / 1000);
        process.stderr.write(
          `bench:graph bulk: ${stage} ${done.toLocaleString('en')} at ${seconds} s, RSS ${Math.round(peakRss / 1e6)} MB, load ${loadavg()[0]?.toFixed(1)}\n`,
        );
      },
    });
    const seconds = (performance.now() - started) / 1000;
    peakRss = Math.max(peakRss, result.peakRss);
    const load = `${loadBefore} → ${loadavg()[0]?.toFixed(1)}`;
    const cpu = process.cpuUsage();
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    return {
      transfers: result.transfers - result.skipped,
      seconds,
      peakRss,
      peakAnonRss: peakAnon,
      pairs: result.pairs,
      addresses: result.addresses,
      runs: result.runs,
      load,
      cpuSeconds,
    };
  } finally {
    await store.close();
  }
}
