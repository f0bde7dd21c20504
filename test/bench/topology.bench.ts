import autocannon from 'autocannon';
import { rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { cpuSecondsOf } from './cpu-per-request.js';
import { PARTIES, writeFullCheckSources } from '../support/full-check-data.js';
import { updateReadme } from '../support/readme-figures.js';
import { startTopology, type RoleProcess, type Topology } from '../support/topology.js';

/**
 * bench:topology — the service as separate processes on real servers (ci/with-servers.sh: Kafka, FerretDB,
 * PostgreSQL with synchronous_commit=on): one projections process, two API processes, two processor
 * processes. Paid light screens (POST /v2/screen, every call charged on the PostgreSQL ledger) through one
 * API process, then through both at once with the same total connections; then a full check's end-to-end
 * time (POST /v2/check-address to the first 200 of its result) with nothing else running. Prints a table and
 * the CPU seconds each process spent per screen; `--write-readme` writes it into docs/benchmarks.md.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const FULL_CHECKS = Number(process.env.BENCH_FULL_CHECKS ?? 10);
const addresses = Array.from({ length: 256 }, (_, i) => '0x' + (i + 1).toString(16).padStart(40, '0'));

function screens(api: RoleProcess, key: string, connections: number, duration: number) {
  let i = 0;
  return autocannon({
    url: api.url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/v2/screen',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ address: addresses[i++ % addresses.length], network: 'ETH' }) }),
      },
    ],
  });
}

/** CPU seconds of every process of the topology, to divide by the screens answered meanwhile. */
async function cpuOf(topology: Topology): Promise<Map<string, number>> {
  const all = [topology.projections, ...topology.apis, ...topology.processors];
  return new Map(await Promise.all(all.map(async (p) => [p.name, p.pid() === undefined ? 0 : await cpuSecondsOf(p.pid()!)] as const)));
}

async function measure(topology: Topology, key: string, apis: readonly RoleProcess[]) {
  await Promise.all(apis.map((api) => screens(api, key, Math.max(1, Math.floor(CONNECTIONS / apis.length)), 2)));
  const before = await cpuOf(topology);
  const results = await Promise.all(apis.map((api) => screens(api, key, Math.floor(CONNECTIONS / apis.length), DURATION_S)));
  const after = await cpuOf(topology);
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  const cpuMicros = (name: string) => Math.round((((after.get(name) ?? 0) - (before.get(name) ?? 0)) * 1e6) / Math.max(1, total));
  return {
    rps: Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    cpu: [...after.keys()].map((name) => `${name} ${cpuMicros(name)}`).join(', '),
  };
}

async function fullCheckTimes(api: RoleProcess, key: string): Promise<number[]> {
  const times: number[] = [];
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  for (let n = 0; n < FULL_CHECKS; n += 1) {
    const started = performance.now();
    const submitted = await fetch(`${api.url}/v2/check-address`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ address: [PARTIES.d, PARTIES.s, PARTIES.b][n % 3], network: 'ETH' }),
    });
    const { check_id: checkId } = (await submitted.json()) as { check_id: string };
    for (;;) {
      const result = await fetch(`${api.url}/v2/check-address/${checkId}/result`, { headers });
      await result.arrayBuffer();
      if (result.status === 200) break;
      if (result.status !== 202) throw new Error(`full check ${checkId}: ${result.status}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

async function main() {
  const { POSTGRES_URL, KAFKA_BROKERS, MONGO_URL } = process.env;
  if (!POSTGRES_URL || !KAFKA_BROKERS || !MONGO_URL) throw new Error('run it through npm run bench:topology (ci/with-servers.sh)');
  const sources = await writeFullCheckSources();
  const topology = await startTopology(
    { postgresUrl: POSTGRES_URL, kafkaBrokers: KAFKA_BROKERS, mongoUrl: MONGO_URL },
    { apis: 2, processors: 2, env: { SVC_SOURCES_DIR: sources, LOG_LEVEL: 'warn' } },
  );
  try {
    const created = await topology.cli(topology.apis[0]!, [
      'account',
      'create',
      '--email',
      'bench@example.test',
      '--org',
      'Bench',
      '--plan',
      'ledger',
      '--deposit',
      '10000000',
      '--with-key',
    ]);
    const key = (created.json as { api_key: string }).api_key;
    for (const api of topology.apis)
      for (let ok = false; !ok;) {
        ok = (await fetch(`${api.url}/v2/balance`, { headers: { authorization: `Bearer ${key}` } })).ok;
        if (!ok) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    const one = await measure(topology, key, topology.apis.slice(0, 1));
    const two = await measure(topology, key, topology.apis);
    const checks = await fullCheckTimes(topology.apis[0]!, key);
    const median = checks[Math.floor(checks.length / 2)]!;
    const table = [
      `Measured by \`npm run bench:topology\` (${new Date().toISOString().slice(0, 10)}; ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} before the run; PostgreSQL 15 with synchronous_commit=on, Kafka 3.9 and FerretDB 1.24 on loopback, every process on this machine; ${CONNECTIONS} connections in total, ${DURATION_S} s after a 2 s warm-up):`,
      '',
      '| paid light screens | screens/s | p50 ms | p99 ms | non-2xx or errors |',
      '|---|---|---|---|---|',
      `| through one API process | ${one.rps} | ${one.p50} | ${one.p99} | ${one.non2xx} |`,
      `| through two API processes | ${two.rps} | ${two.p50} | ${two.p99} | ${two.non2xx} |`,
      '',
      `Two / one: **${(two.rps / one.rps).toFixed(2)}**. CPU µs per screen, by process (one API): ${one.cpu}; (two APIs): ${two.cpu}.`,
      `A full check end to end (POST, then its result polled every 10 ms until 200), ${FULL_CHECKS} one after another with nothing else running: median ${Math.round(median)} ms, slowest ${Math.round(checks.at(-1)!)} ms.`,
    ].join('\n');
    process.stdout.write(`${table}\n`);
    await updateReadme('bench:topology', table);
  } finally {
    await topology.close();
    await rm(sources, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
