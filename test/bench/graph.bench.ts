import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticAddress, syntheticSource, toTagpack } from '../synthetic/synthetic-graph.js';
import { writeFullCheckSources } from '../support/full-check-data.js';
import { updateReadme } from '../support/readme-figures.js';
import { startTestService } from '../support/test-service.js';
import { externalGraph, graphStoreEnv, postgresDataDirectory, postgresGraphBytes } from './graph-bench-store.js';
import { PER_BLOCK, publishSynthetic } from './graph-synthetic-ingest.js';
import { bulkBuildInChild, type BulkFigures } from './graph-bulk-build.js';
import { evictFromPageCache } from './page-cache.js';

/**
 * bench:graph — the transfer graph at chain scale, through the graph pipeline: a synthetic graph shaped like
 * mainnet (power-law degrees, hubs with up to millions of counterparties, exchanges labelled) published
 * to topic chain.transfers and folded into the graph store by the service's own folder; then restarts in
 * processes of their own: start time and RSS of an empty data directory and of the full one, the first
 * searches after the restart (cold) and later ones (warm), with the 10k-node budget, and full checks of the
 * heaviest exchange (a super-node) beside ordinary addresses. BENCH_GRAPH_TRANSFERS (default 100M),
 * BENCH_GRAPH_ADDRESSES (a tenth of it). In external mode (`npm run bench:graph:external`: ci/with-servers.sh,
 * GRAPH_STORE=postgres) the same run goes through Kafka into the PostgreSQL graph store, in a schema of its own. BENCH_GRAPH_DIR: where the data directory goes (default the OS's temporary directory);
 * BENCH_GRAPH_KEEP=1 keeps it. With --write-readme, writes the table into docs/benchmarks.md.
 * BENCH_GRAPH_BULK=1 (the default from 5M transfers on with the embedded store; set it in external mode)
 * builds the graph but its last BENCH_GRAPH_TAIL transfers (default 1M) with the bulk load (LMDB's sorted one,
 * infra/chain/graph/bulk, or PostgreSQL's, infra/postgres/pg-graph-bulk.ts), in a process of its own, and then
 * publishes the tail through the pipeline on top of it: both rates are printed
 * (BENCH_GRAPH_BULK_MEMORY_MB: the LMDB load's memory budget, default the load's own).
 */

const TRANSFERS = Number(process.env.BENCH_GRAPH_TRANSFERS ?? 100_000_000);
const ADDRESSES = Number(process.env.BENCH_GRAPH_ADDRESSES ?? Math.round(TRANSFERS / 10));
const COLD = 20;
const WARM = Number(process.env.BENCH_GRAPH_SEARCHES ?? 300);
const CHECKS = Number(process.env.BENCH_GRAPH_CHECKS ?? 10);
const BULK = process.env.BENCH_GRAPH_BULK ? process.env.BENCH_GRAPH_BULK === '1' : !externalGraph() && TRANSFERS >= 5_000_000;
/** Transfers the bulk load builds: all but the tail, in whole blocks (a bulk load owns the blocks it covered). */
const BULK_TRANSFERS = BULK
  ? Math.max(0, Math.floor((TRANSFERS - Number(process.env.BENCH_GRAPH_TAIL ?? 1_000_000)) / PER_BLOCK) * PER_BLOCK)
  : 0;

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (x: number) => x.toFixed(1);
const mb = (bytes: number) => Math.round(bytes / 1e6).toLocaleString('en');

async function bytesUnder(path: string): Promise<number> {
  const info = await stat(path).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const name of await readdir(path)) total += await bytesUnder(join(path, name));
  return total;
}

/** The graph store's bytes on disk: its LMDB file, or its PostgreSQL tables. */
async function graphBytes(dataDir: string): Promise<number> {
  const schema = graphStoreEnv().GRAPH_POSTGRES_SCHEMA;
  return schema ? postgresGraphBytes(schema) : bytesUnder(join(dataDir, 'graph'));
}

/** One search of graph-restart.child.ts: wall and CPU (user + system) time, page faults (minor, major). */
interface SearchRun {
  ms: number;
  cpuMs: number;
  userMs: number;
  systemMs: number;
  minorFaults: number;
  majorFaults: number;
  nodes: number;
  edges: number;
  complete: boolean;
}

/** Mean user and system CPU and page faults of searches: where their time goes besides other processes. */
const usageCell = (runs: readonly SearchRun[]): string => {
  const mean = (f: (r: SearchRun) => number) => runs.reduce((sum, r) => sum + f(r), 0) / Math.max(1, runs.length);
  return `user ${ms(mean((r) => r.userMs))} + system ${ms(mean((r) => r.systemMs))} ms, ${Math.round(mean((r) => r.minorFaults)).toLocaleString('en')} minor + ${Math.round(mean((r) => r.majorFaults)).toLocaleString('en')} major page faults`;
};

interface RestartFigures {
  startMs: number;
  rssAfterStart: number;
  rssAfterSearches: number;
  coldRuns: SearchRun[];
  warmRuns: SearchRun[];
  hubChecks: number[];
  ordinaryChecks: number[];
  hubCounterparties: number | null;
}

function restart(
  dataDir: string,
  sources: string,
  anchors: readonly string[],
  hub: string | null,
  searches = true,
  graphSuffix = '',
): RestartFigures {
  const args = [
    dataDir,
    sources,
    JSON.stringify(anchors),
    hub ?? '-',
    searches ? String(COLD) : '0',
    searches ? String(WARM) : '0',
    searches ? String(CHECKS) : '0',
  ];
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'test/bench/graph-restart.child.ts', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...graphStoreEnv(graphSuffix) },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as RestartFigures;
}

function bulkRow(bulk: BulkFigures | null): string[] {
  if (!bulk) return [];
  const rate = Math.round(bulk.transfers / bulk.seconds).toLocaleString('en');
  return [
    `| bulk load (${externalGraph() ? 'PostgreSQL: staging, then set-based SQL' : 'sorted: infra/chain/graph/bulk'}, a process of its own) | ${rate} transfers/s (${bulk.transfers.toLocaleString('en')} in ${Math.round(bulk.seconds).toLocaleString('en')} s, ${Math.round(bulk.transfers / (bulk.cpuSeconds ?? Number.NaN)).toLocaleString('en')} per CPU second of the loading process, ${bulk.pairs.toLocaleString('en')} pairs, ${bulk.addresses.toLocaleString('en')} addresses${externalGraph() ? '' : `, ${bulk.runs} run files`}; peak RSS ${mb(bulk.peakRss)} MB; load ${bulk.load}) |`,
  ];
}

async function main() {
  const loadAtStart = loadavg()[0]?.toFixed(1);
  const source = syntheticSource({ addresses: ADDRESSES, transfers: TRANSFERS, seed: 42 });
  const sources = await writeFullCheckSources();
  await mkdir(join(sources, 'graphsense-tagpacks'), { recursive: true });
  await writeFile(join(sources, 'graphsense-tagpacks', 'synthetic.json'), toTagpack(source));
  const work = await mkdtemp(join(process.env.BENCH_GRAPH_DIR ?? tmpdir(), 'bench-graph-'));
  const emptyDir = join(work, 'empty');
  const dataDir = join(work, 'data');
  const hubId = [...source.labels].find(([, label]) => label.name === 'synthetic exchange 1')?.[0];
  const hub = hubId === undefined ? null : syntheticAddress(hubId);
  const anchors = Array.from({ length: COLD + WARM + 10 }, (_, k) =>
    syntheticAddress(Number((BigInt(k + 1) * 2654435761n) % BigInt(ADDRESSES))),
  );
  try {
    const empty = restart(emptyDir, sources, anchors, null, false, '_empty');
    const bulk = BULK ? bulkBuildInChild(dataDir, { addresses: ADDRESSES, transfers: TRANSFERS }, BULK_TRANSFERS) : null;
    // The parent's source goes on where the bulk load stopped (the same seeded graph).
    for (let skipped = 0; skipped < BULK_TRANSFERS;) skipped += source.next(Math.min(1_000_000, BULK_TRANSFERS - skipped)).from.length;

    const service = await startTestService({ SVC_SOURCES_DIR: sources, ...graphStoreEnv() }, dataDir);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    let lastReport = started;
    await publishSynthetic(
      service.services.bus,
      source,
      (published) => {
        if (performance.now() - lastReport < 30_000) return;
        lastReport = performance.now();
        const rate = Math.round(published / ((lastReport - started) / 1000));
        void graphBytes(dataDir).then((bytes) =>
          process.stderr.write(
            `bench:graph: ${published.toLocaleString('en')} published, ${rate.toLocaleString('en')}/s, graph ${Math.round(bytes / (BULK_TRANSFERS + published))} B/transfer, RSS ${mb(process.memoryUsage().rss)} MB, load ${loadavg()[0]?.toFixed(1)}\n`,
          ),
        );
      },
      BULK_TRANSFERS,
    );
    await service.services.fullCheck.whenCaughtUp();
    const ingestS = (performance.now() - started) / 1000;
    const rssAfterIngest = process.memoryUsage().rss;
    const loadAfterIngest = loadavg()[0]?.toFixed(1);
    const folded = await service.services.fullCheck.graph.size('ETH');
    const tail = folded - (bulk?.transfers ?? 0);
    await service.close();
    const storeBytes = await graphBytes(dataDir);
    // The embedded bus appends the transfer messages to the event store (stream bus-chain.transfers): that is their copy.
    const busBytes = await bytesUnder(join(dataDir, 'store'));

    const pgData = externalGraph() ? await postgresDataDirectory() : null;
    const evicted = evictFromPageCache(externalGraph() ? (pgData ?? '/nonexistent') : join(dataDir, 'graph'));
    const full = restart(dataDir, sources, anchors, hub);
    const cold = full.coldRuns.map((r) => r.ms);
    const warm = full.warmRuns.map((r) => r.ms);
    const avg = (runs: RestartFigures['warmRuns'], f: (r: RestartFigures['warmRuns'][number]) => number) =>
      Math.round(runs.reduce((s, r) => s + f(r), 0) / Math.max(1, runs.length));
    const dailyGoal = 10 * (5_000_000 + 10_000_000);

    const table = [
      `Measured by \`npm run ${externalGraph() ? 'bench:graph:external' : 'bench:graph'}\` (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, load average ${loadAtStart} at the start and ${loadAfterIngest} after the ingest; the machine is shared, so wall-clock figures vary between runs):`,
      '',
      `Synthetic graph: ${ADDRESSES.toLocaleString('en')} addresses, ${TRANSFERS.toLocaleString('en')} transfers (power-law degrees; the heaviest exchange has ${full.hubCounterparties?.toLocaleString('en') ?? '?'} incoming counterparties), ${bulk ? `the first ${bulk.transfers.toLocaleString('en')} bulk-loaded into the ${externalGraph() ? 'PostgreSQL' : 'LMDB'} graph store, the last ${tail.toLocaleString('en')} ` : ''}published to \`chain.transfers\` in messages of 1,000 transfers and folded by the service's graph-fold processor into the ${externalGraph() ? 'PostgreSQL' : 'LMDB'} graph store, through ${process.env.BUS === 'kafka' ? 'Kafka' : 'the embedded bus'}.`,
      '',
      '| measure | value |',
      '|---|---|',
      ...bulkRow(bulk),
      `| ingest through the pipeline${bulk ? ', on top of the bulk-loaded graph' : ''} | ${Math.round(tail / ingestS).toLocaleString('en')} transfers/s (${tail.toLocaleString('en')} in ${Math.round(ingestS).toLocaleString('en')} s); goal ${Math.round(dailyGoal / 86_400).toLocaleString('en')}/s (ten times Ethereum's and TRON's ~15M transfers a day) |`,
      `| disk per transfer | ${Math.round(storeBytes / folded)} B in the graph store (${mb(storeBytes)} MB${externalGraph() ? ", PostgreSQL's tables and indexes" : ''}); the bus's copy: ${externalGraph() ? 'in Kafka, not counted' : `${Math.round(busBytes / folded)} B (the event store)`} |`,
      `| RSS after the ingest (the ingesting process) | ${mb(rssAfterIngest)} MB (${mb(rssAfterIngest - before)} MB more than before it) |`,
      `| start time, empty data directory → full one | ${ms(empty.startMs)} ms → ${ms(full.startMs)} ms |`,
      `| RSS after a restart, empty → full | ${mb(empty.rssAfterStart)} MB → ${mb(full.rssAfterStart)} MB (${(full.rssAfterStart / empty.rssAfterStart).toFixed(2)}x; goal ≤ 1.25x) |`,
      `| exposure search after the restart, cold (first ${cold.length}${evicted ? `, graph evicted from the OS cache${externalGraph() ? " (PostgreSQL's shared buffers kept)" : ''}` : ''}) p50 / p99 | ${ms(percentile(cold, 50))} / ${ms(percentile(cold, 99))} ms (goal p99 ≤ 1,000) |`,
      `| exposure search, warm (next ${warm.length}) p50 / p99 | ${ms(percentile(warm, 50))} / ${ms(percentile(warm, 99))} ms (goal p99 ≤ 100) |`,
      `| CPU time of a warm search p50 / p99 (what the wall clock above waits on besides other processes) | ${ms(
        percentile(
          full.warmRuns.map((r) => r.cpuMs),
          50,
        ),
      )} / ${ms(
        percentile(
          full.warmRuns.map((r) => r.cpuMs),
          99,
        ),
      )} ms |`,
      `| per search, mean: cold / warm | ${usageCell(full.coldRuns)} / ${usageCell(full.warmRuns)} |`,
      `| RSS after the searches | ${mb(full.rssAfterSearches)} MB (${externalGraph() ? "the graph is PostgreSQL's memory, not this process's" : "LMDB's pages are mapped: the OS may drop them"}) |`,
      `| full check end to end, the heaviest exchange (super-node) p50 / max | ${ms(percentile(full.hubChecks, 50))} / ${ms(Math.max(...full.hubChecks))} ms |`,
      `| full check end to end, ordinary addresses p50 / max | ${ms(percentile(full.ordinaryChecks, 50))} / ${ms(Math.max(...full.ordinaryChecks))} ms |`,
      '',
      `Budget: 10k nodes / 200k edges / 6 hops, incoming. Searches visited ${avg(full.warmRuns, (r) => r.nodes).toLocaleString('en')} addresses and read ${avg(full.warmRuns, (r) => r.edges).toLocaleString('en')} flows on average.`,
    ].join('\n');
    process.stdout.write(`${table}\n`);
    await updateReadme(externalGraph() ? 'bench:graph:external' : 'bench:graph', table);
  } finally {
    if (process.env.BENCH_GRAPH_KEEP === '1') process.stderr.write(`bench:graph: kept ${work}\n`);
    else await rm(work, { recursive: true, force: true });
    await rm(sources, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
