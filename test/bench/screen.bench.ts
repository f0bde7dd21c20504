import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { printTopSelfTime, profileClockMicros } from './cpu-profile-top.js';
import { cpuSecondsByThread, cpuSecondsOf } from './cpu-per-request.js';
import { updateReadme } from '../support/readme-figures.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';

/**
 * bench:screen — POST /v2/screen on the embedded default (fsync on, every call charged) beside three
 * references, interleaved (every round loads each in turn): the shared floor (../shared/bench/floor-server.mjs,
 * the reference of the screen's goal: the least a durable, charged screen does), our own floor (the same
 * steps plus a request line, test/bench/floor-server.ts) and a bare Fastify route returning a same-sized JSON.
 * Prints medians, ratios and the screen's CPU per request by thread; with --write-readme, also writes them into
 * docs/benchmarks.md between the bench:screen markers. The service runs with its default settings (request
 * lines at `info` on stderr, drained here) unless BENCH_LOG_LEVEL says otherwise; with --cpu-prof, it also
 * writes a CPU profile and prints its top frames.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The screen's throughput goal is set against this reference, kept outside the repository (issue 30). */
const SHARED_FLOOR = resolve(process.env.BENCH_SHARED_FLOOR ?? '../shared/bench/floor-server.mjs');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const KEY = `svc_${'B'.repeat(44)}`;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL;
const CPU_PROFILE = process.argv.slice(2).includes('--cpu-prof');
const addresses = Array.from({ length: 64 }, (_, i) => '0x' + (i + 1).toString(16).padStart(40, '0'));

/** What autocannon measured on one target in one round, and the CPU its server spent per answered request. */
interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpuMicrosPerRequest: number;
  requests: number;
  cpuByThread: Map<string, number>;
}

async function load(port: number, headers: Record<string, string>, pid: number | undefined, bodyOf: () => string): Promise<Measured> {
  const run = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: 'POST',
          path: '/v2/screen',
          headers: { 'content-type': 'application/json', ...headers },
          setupRequest: (request) => ({ ...request, body: bodyOf() }),
        },
      ],
    });
  await run(2);
  const threadsBefore = pid === undefined ? new Map<string, number>() : await cpuSecondsByThread(pid);
  const cpuBefore = pid === undefined ? 0 : await cpuSecondsOf(pid);
  const result = await run(DURATION_S);
  const cpu = pid === undefined ? 0 : (await cpuSecondsOf(pid)) - cpuBefore;
  const threadsAfter = pid === undefined ? new Map<string, number>() : await cpuSecondsByThread(pid);
  const cpuByThread = new Map([...threadsAfter].map(([name, seconds]) => [name, seconds - (threadsBefore.get(name) ?? 0)]));
  // CPU per answered request: what the server spends on one, whatever else runs on the machine.
  const requests = Math.max(1, result.requests.total);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMicrosPerRequest: Math.round((cpu * 1e6) / requests),
    requests,
    cpuByThread,
  };
}

/** Once started, a child's output is read and dropped: spawnTsx keeps what it reads, and the log lines would pile up. */
function drainOutput(child: ChildProcess): void {
  for (const stream of [child.stdout, child.stderr]) {
    stream?.removeAllListeners('data');
    stream?.resume();
  }
}

/** Resolves once something answers HTTP on `port` (the shared floor prints nothing when it listens). */
async function answering(port: number, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the shared floor exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing answered on port ${port} after ${timeoutMs} ms`);
}

/** ../shared/bench/floor-server.mjs (usage in its first lines): the same key, the screen's own answer as its sample. */
async function startSharedFloor(dir: string, sample: string): Promise<{ child: ChildProcess; port: number }> {
  const samplePath = join(dir, 'shared-floor-sample.json');
  await writeFile(samplePath, sample);
  const port = await freePort();
  const fastify = pathToFileURL(createRequire(import.meta.url).resolve('fastify')).href;
  const child = spawn(process.execPath, [SHARED_FLOOR, fastify, String(port), samplePath, KEY, join(dir, 'shared-floor.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.resume();
  await answering(port, child);
  return { child, port };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

interface Target {
  readonly label: string;
  readonly port: number;
  readonly pid: number | undefined;
  readonly headers: Record<string, string>;
  readonly bodyOf: () => string;
  readonly rounds: Measured[];
}

function row(target: Target): string {
  const m = (pick: (r: Measured) => number) => median(target.rounds.map(pick));
  return `| ${target.label} | ${m((r) => r.rps)} | ${m((r) => r.p50)} | ${m((r) => r.p99)} | ${m((r) => r.non2xx + r.errors)} | ${m((r) => r.cpuMicrosPerRequest)} |`;
}

/** The screen's CPU per request by thread, summed over its rounds. */
function threadRows(screen: Target): string[] {
  const seconds = new Map<string, number>();
  let requests = 0;
  for (const round of screen.rounds) {
    requests += round.requests;
    for (const [name, s] of round.cpuByThread) seconds.set(name, (seconds.get(name) ?? 0) + s);
  }
  return [...seconds]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, s]) => `| ${name} | ${Math.round((s * 1e6) / requests)} |`);
}

/** The table: medians per target, the ratios, the screen's CPU by thread. */
function report(targets: readonly Target[], bodyBytes: number): string {
  const [screen, shared, own, baseline] = targets.map((t) => median(t.rounds.map((r) => r.rps))) as [number, number, number, number];
  const loads = loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
  const table = [
    `Measured by \`npm run bench:screen\` (${new Date().toISOString().slice(0, 10)}, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION_S} s after a 2 s warm-up each, medians; autocannon on the same 2-core machine, load average ${loads} (1/5/15 min) at the end; service log level ${LOG_LEVEL ?? 'default (info)'}; response ${bodyBytes} bytes):`,
    '',
    '| route | req/s | p50 ms | p99 ms | non-2xx or errors | server CPU µs per request |',
    '|---|---|---|---|---|---|',
    ...targets.map(row),
    '',
    `Throughput ratios: screen / shared floor **${(screen / shared).toFixed(2)}** (goal 0.5); screen / own floor ${(screen / own).toFixed(2)}; screen / bare ${(screen / baseline).toFixed(2)}; shared floor / bare ${(shared / baseline).toFixed(2)}.`,
    '',
    "The screen's CPU per request by thread (all rounds):",
    '',
    '| thread | CPU µs per screen |',
    '|---|---|',
    ...threadRows(targets[0]!),
  ].join('\n');
  return table;
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-screen-'));
  const profileDir = `${dataDir}-cpu-profile`; // kept after the run, for a closer look
  const servicePort = await freePort();
  const service = await spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      PORT: String(servicePort),
      HOST: '127.0.0.1',
      SVC_DEMO_API_KEY: KEY,
      SVC_DEMO_DEPOSIT_USD: '1000000',
      SVC_SOURCES_DIR: MINIMAL_SANCTIONS_DIR,
      ...(LOG_LEVEL ? { LOG_LEVEL } : {}),
    },
    /listening on/,
    120_000,
    CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  drainOutput(service.child);
  const sampleResponse = await fetch(`http://127.0.0.1:${servicePort}/v2/screen`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ address: addresses[0], network: 'ETH' }),
  });
  const sample = await sampleResponse.text();
  const bodyBytes = sample.length;

  const floorPort = await freePort();
  const ownFloor = await spawnTsx('test/bench/floor-server.ts', { PORT: String(floorPort), BODY_BYTES: String(bodyBytes), KEY }, /ready/);
  drainOutput(ownFloor.child);
  const sharedFloor = await startSharedFloor(dataDir, sample);
  const barePort = await freePort();
  const bare = await spawnTsx('test/bench/bare-server.ts', { PORT: String(barePort), BODY_BYTES: String(bodyBytes) }, /ready/);
  drainOutput(bare.child);

  let i = 0;
  const rotating = () => JSON.stringify({ address: addresses[i++ % addresses.length], network: 'ETH' });
  // The shared floor holds one verdict, the sample's: asked for it every time, it answers the screen's body.
  const sampleBody = () => JSON.stringify({ address: addresses[0], network: 'ETH' });
  const auth = { authorization: `Bearer ${KEY}` };
  const target = (label: string, port: number, pid: number | undefined, headers: Record<string, string>, bodyOf: () => string): Target => ({
    label,
    port,
    pid,
    headers,
    bodyOf,
    rounds: [],
  });
  const targets = [
    target('POST /v2/screen (embedded, fsync, charged)', servicePort, service.child.pid, auth, rotating),
    target('shared floor (../shared/bench/floor-server.mjs)', sharedFloor.port, sharedFloor.child.pid, auth, sampleBody),
    target('own floor, with a request line (test/bench/floor-server.ts)', floorPort, ownFloor.child.pid, auth, rotating),
    target('bare Fastify route, same-sized JSON', barePort, bare.child.pid, {}, rotating),
  ];
  const loadStarted = profileClockMicros();
  // Interleaved: each round loads every target in turn, so a neighbour's burst falls on all of them alike.
  for (let round = 0; round < ROUNDS; round += 1)
    for (const target of targets) target.rounds.push(await load(target.port, target.headers, target.pid, target.bodyOf));
  await stop(service.child);
  for (const child of [ownFloor.child, sharedFloor.child, bare.child]) await stop(child);
  if (CPU_PROFILE) await printTopSelfTime(profileDir, loadStarted);
  await rm(dataDir, { recursive: true, force: true });

  const table = report(targets, bodyBytes);
  process.stdout.write(`${table}\n`);
  await updateReadme('bench:screen', table);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
