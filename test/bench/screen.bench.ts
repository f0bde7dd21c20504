import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { printTopSelfTime, profileClockMicros } from './cpu-profile-top.js';
import { cpuSecondsOf } from './cpu-per-request.js';
import { updateReadme } from '../support/readme-figures.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';

/**
 * bench:screen — POST /v2/screen on the embedded default (fsync on, every call charged) side by side with
 * a bare Fastify route returning a same-sized JSON, in one run, same load generator and settings; between
 * them the floor (floor-server.ts): the least any durable, charged screen does, on the same framework.
 * Prints a table; with --write-readme, also writes it into docs/benchmarks.md between the bench:screen markers.
 * The service runs with its default settings (request lines at `info` on stderr, drained here) unless
 * BENCH_LOG_LEVEL says otherwise; with --cpu-prof, it also writes a CPU profile and prints its top frames.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const KEY = `svc_${'B'.repeat(44)}`;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL;
const CPU_PROFILE = process.argv.slice(2).includes('--cpu-prof');
const addresses = Array.from({ length: 64 }, (_, i) => '0x' + (i + 1).toString(16).padStart(40, '0'));

async function load(port: number, headers: Record<string, string>, pid: number | undefined) {
  let i = 0;
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
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ address: addresses[i++ % addresses.length], network: 'ETH' }) }),
        },
      ],
    });
  await run(2);
  const cpuBefore = pid === undefined ? 0 : await cpuSecondsOf(pid);
  const result = await run(DURATION_S);
  const cpu = pid === undefined ? 0 : (await cpuSecondsOf(pid)) - cpuBefore;
  // CPU per answered request: what the server spends on one, whatever else runs on the machine.
  const cpuMicrosPerRequest = Math.round((cpu * 1e6) / Math.max(1, result.requests.total));
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMicrosPerRequest,
  };
}

/** Once started, a child's output is read and dropped: spawnTsx keeps what it reads, and the log lines would pile up. */
function drainOutput(child: ChildProcess): void {
  for (const stream of [child.stdout, child.stderr]) {
    stream?.removeAllListeners('data');
    stream?.resume();
  }
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
  const sample = await fetch(`http://127.0.0.1:${servicePort}/v2/screen`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ address: addresses[0], network: 'ETH' }),
  });
  const bodyBytes = (await sample.text()).length;
  const loadStarted = profileClockMicros();
  const screen = await load(servicePort, { authorization: `Bearer ${KEY}` }, service.child.pid);
  await stop(service.child);
  if (CPU_PROFILE) await printTopSelfTime(profileDir, loadStarted);

  const floorPort = await freePort();
  const floorServer = await spawnTsx(
    'test/bench/floor-server.ts',
    { PORT: String(floorPort), BODY_BYTES: String(bodyBytes), KEY },
    /ready/,
  );
  drainOutput(floorServer.child);
  const floor = await load(floorPort, { authorization: `Bearer ${KEY}` }, floorServer.child.pid);
  await stop(floorServer.child);

  const barePort = await freePort();
  const bare = await spawnTsx('test/bench/bare-server.ts', { PORT: String(barePort), BODY_BYTES: String(bodyBytes) }, /ready/);
  drainOutput(bare.child);
  const baseline = await load(barePort, {}, bare.child.pid);
  await stop(bare.child);
  await rm(dataDir, { recursive: true, force: true });

  const table = [
    `Measured by \`npm run bench:screen\` (${new Date().toISOString().slice(0, 10)}, ${CONNECTIONS} connections, ${DURATION_S} s after a 2 s warm-up, autocannon on the same 2-core machine at load average ${loadavg()[0]?.toFixed(2) ?? '?'}; service log level ${LOG_LEVEL ?? 'default (info)'}; response ${bodyBytes} bytes):`,
    '',
    '| route | req/s | p50 ms | p99 ms | non-2xx | server CPU µs per request |',
    '|---|---|---|---|---|---|',
    `| POST /v2/screen (embedded, fsync, charged) | ${screen.rps} | ${screen.p50} | ${screen.p99} | ${screen.non2xx} | ${screen.cpuMicrosPerRequest} |`,
    `| floor: the least a durable charged screen does (test/bench/floor-server.ts) | ${floor.rps} | ${floor.p50} | ${floor.p99} | ${floor.non2xx} | ${floor.cpuMicrosPerRequest} |`,
    `| bare Fastify route, same-sized JSON | ${baseline.rps} | ${baseline.p50} | ${baseline.p99} | ${baseline.non2xx} | ${baseline.cpuMicrosPerRequest} |`,
    '',
    `Throughput ratio screen / bare: **${(screen.rps / baseline.rps).toFixed(2)}**; floor / bare: ${(floor.rps / baseline.rps).toFixed(2)}; screen / floor: ${(screen.rps / floor.rps).toFixed(2)}.`,
  ].join('\n');
  process.stdout.write(`${table}\n`);
  await updateReadme('bench:screen', table);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
