import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { syntheticAddress, syntheticSource, toTagpack } from '../synthetic/synthetic-graph.js';
import { writeFullCheckSources } from '../support/full-check-data.js';
import { printTopSelfTime, profileClockMicros } from './cpu-profile-top.js';
import { evictFromPageCache } from './page-cache.js';

/**
 * The warm exposure searches of bench:graph again, on a data directory a `BENCH_GRAPH_KEEP=1` run kept,
 * without building the graph again: `node --import tsx test/bench/graph-warm-search.ts <kept>/data` with the
 * same BENCH_GRAPH_TRANSFERS (and BENCH_GRAPH_ADDRESSES) as the run that built it, so the labels and
 * anchors are the same. Runs graph-restart.child.ts (20 cold searches, then BENCH_GRAPH_SEARCHES warm
 * ones, no full checks) and prints for each kind the wall and CPU p50 / p99, user and system CPU and the page
 * faults per search (minor: a page of the LMDB map mapped on first touch; major: read from the disk).
 * BENCH_GRAPH_EVICT=1 drops the graph's files from the OS cache first, so the cold searches read the disk. BENCH_GRAPH_PROFILE=<dir>: the child
 * runs with --cpu-prof into that directory and the top self-time frames are printed. BENCH_GRAPH_DIGESTS=<file>:
 * writes a digest of each warm search's result there, to compare two builds' answers. A second argument
 * (`<kept>/empty`, the empty data directory the same run kept): the service is started on it too, without
 * searches, and both RSS after the start are printed with their ratio (the goal's full / empty ≤ 1.25),
 * under the same BENCH_GRAPH_NODE_FLAGS.
 */

const TRANSFERS = Number(process.env.BENCH_GRAPH_TRANSFERS ?? 100_000_000);
const ADDRESSES = Number(process.env.BENCH_GRAPH_ADDRESSES ?? Math.round(TRANSFERS / 10));
const COLD = 20;
const WARM = Number(process.env.BENCH_GRAPH_SEARCHES ?? 300);

interface Figures {
  coldRuns: Run[];
  warmRuns: Run[];
  rssAfterStart: number;
}

interface Run {
  digest: string;
  ms: number;
  cpuMs: number;
  userMs: number;
  systemMs: number;
  minorFaults: number;
  majorFaults: number;
  nodes: number;
  edges: number;
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);

/** Searches' wall and CPU p50 / p99, user and system CPU and page faults (mean, p99), and the five slowest by CPU. */
function printRuns(kind: string, runs: readonly Run[], loadBefore: string | undefined): void {
  const p = (f: (r: Run) => number) => {
    const values = runs.map(f);
    return `${percentile(values, 50).toFixed(1)} / ${percentile(values, 99).toFixed(1)}`;
  };
  const avg = (f: (r: Run) => number) => Math.round(mean(runs.map(f)));
  process.stdout.write(
    `${kind} ${runs.length}: wall p50 / p99 ${p((r) => r.ms)} ms, CPU p50 / p99 ${p((r) => r.cpuMs)} ms ` +
      `(user ${p((r) => r.userMs)}, system ${p((r) => r.systemMs)}), page faults per search: minor mean ${avg((r) => r.minorFaults)} ` +
      `p99 ${percentile(
        runs.map((r) => r.minorFaults),
        99,
      )}, major mean ${avg((r) => r.majorFaults)} p99 ${percentile(
        runs.map((r) => r.majorFaults),
        99,
      )}; ` +
      `${avg((r) => r.nodes)} nodes, ${avg((r) => r.edges)} edges on average; load ${loadBefore} → ${loadavg()[0]?.toFixed(2)}\n`,
  );
  const slowest = runs
    .map((run, at) => ({ ...run, at }))
    .sort((a, b) => b.cpuMs - a.cpuMs)
    .slice(0, 5);
  process.stdout.write(
    `slowest by CPU: ${slowest.map((r) => `#${r.at} ${r.cpuMs.toFixed(0)} ms (${r.nodes} nodes, ${r.edges} edges, ${r.minorFaults}+${r.majorFaults} faults)`).join(', ')}\n`,
  );
}

async function main() {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: graph-warm-search.ts <kept bench-graph directory>/data');
  const source = syntheticSource({ addresses: ADDRESSES, transfers: TRANSFERS, seed: 42 });
  const sources = await writeFullCheckSources();
  await mkdir(join(sources, 'graphsense-tagpacks'), { recursive: true });
  await writeFile(join(sources, 'graphsense-tagpacks', 'synthetic.json'), toTagpack(source));
  const anchors = Array.from({ length: COLD + WARM + 10 }, (_, k) =>
    syntheticAddress(Number((BigInt(k + 1) * 2654435761n) % BigInt(ADDRESSES))),
  );
  const profileDir = process.env.BENCH_GRAPH_PROFILE;
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  // BENCH_GRAPH_NODE_FLAGS: more flags for the child (--trace-gc: its lines go to stdout beside the figures).
  const flags = process.env.BENCH_GRAPH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = (dir: string, warm: number, extra: readonly string[] = []) =>
    execFileSync(
      process.execPath,
      [
        ...extra,
        ...flags,
        '--import',
        'tsx',
        'test/bench/graph-restart.child.ts',
        dir,
        sources,
        JSON.stringify(anchors),
        '-',
        String(warm > 0 ? COLD : 0),
        String(warm),
        '0',
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
    );
  const lastJson = (out: string) =>
    JSON.parse([...out.trim().split('\n')].reverse().find((line) => line.startsWith('{')) ?? '{}') as Figures;
  try {
    const loadBefore = loadavg()[0]?.toFixed(2);
    const evicted = process.env.BENCH_GRAPH_EVICT === '1' && evictFromPageCache(join(dataDir, 'graph'));
    const fromMicros = profileClockMicros();
    const out = child(dataDir, WARM, profile);
    const lines = out.trim().split('\n');
    const { coldRuns, warmRuns, rssAfterStart } = lastJson(out);
    const gcLines = lines.filter((line) => /ms: (Mark-Compact|Scavenge|Mark-sweep)/.test(line));
    if (gcLines.length > 0) process.stdout.write(`${gcLines.join('\n')}\n`);
    printRuns(evicted ? 'cold (graph evicted from the OS cache)' : 'cold (first after the start)', coldRuns, loadBefore);
    printRuns('warm', warmRuns, loadBefore);
    const emptyDir = process.argv[3];
    if (emptyDir) {
      const empty = lastJson(child(emptyDir, 0)).rssAfterStart;
      const mb = (bytes: number) => Math.round(bytes / 1e6);
      process.stdout.write(
        `RSS after a start, empty → full: ${mb(empty)} → ${mb(rssAfterStart)} MB (${(rssAfterStart / empty).toFixed(2)}x); load ${loadavg()[0]?.toFixed(2)}\n`,
      );
    }
    const digests = process.env.BENCH_GRAPH_DIGESTS;
    if (digests) await writeFile(digests, warmRuns.map((r) => r.digest).join('\n'));
    if (profileDir) await printTopSelfTime(profileDir, fromMicros);
  } finally {
    await rm(sources, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
