import autocannon from 'autocannon';
import { readFile, rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { cpuSecondsOf, cpuSecondsOfTree } from './cpu-per-request.js';
import { PARTIES, writeFullCheckSources } from '../support/full-check-data.js';
import { updateReadme } from '../support/readme-figures.js';
import { startTopology, type RoleProcess, type Topology } from '../support/topology.js';

/**
 * bench:topology — the service as separate processes on real servers (ci/with-servers.sh: Kafka, FerretDB,
 * PostgreSQL with synchronous_commit=on): one projections process, two API processes, two processor
 * processes. Paid light screens (POST /v2/screen, every call charged on the PostgreSQL ledger) spread over
 * BENCH_ACCOUNTS accounts (10) through one API process, then through both at once with the same total
 * connections, then through both on one account (whose ledger stream both APIs then append to), taking turns
 * BENCH_ROUNDS times (2); then a full check's end-to-end time (POST /v2/check-address to the first 200 of its
 * result) with nothing else running. Beside the rates it prints the CPU each process and each server (its
 * whole process tree) spent per screen: their sum is what one screen costs the machine, and the cores divided
 * by it the rate the machine could reach if nothing else ran. `--write-readme` writes it into docs/benchmarks.md.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const FULL_CHECKS = Number(process.env.BENCH_FULL_CHECKS ?? 10);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const addresses = Array.from({ length: 256 }, (_, i) => '0x' + (i + 1).toString(16).padStart(40, '0'));

/** The first body of each non-2xx status met, printed at the end: what a refusal said. */
const refusals = new Map<number, string>();

/** Screens spread over `keys` (each account's charges go to its own ledger stream). */
function screens(api: RoleProcess, keys: readonly string[], connections: number, duration: number) {
  let i = 0;
  return autocannon({
    url: api.url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/v2/screen',
        setupRequest: (request) => {
          const n = i++;
          return {
            ...request,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[n % keys.length]}` },
            body: JSON.stringify({ address: addresses[n % addresses.length], network: 'ETH' }),
          };
        },
        onResponse: (status: number, body: string) => {
          if (status >= 300 && !refusals.has(status)) refusals.set(status, body.slice(0, 300));
        },
      },
    ],
  });
}

/** The servers' root processes as ci/with-servers.sh left them (its default state directories). */
async function serverRoots(): Promise<Map<string, number>> {
  const pidIn = async (file: string) => Number((await readFile(file, 'utf8')).split('\n')[0]);
  const pgdirOf = async (state: string) => (await readFile(`.tmp/servers/${state}/pgdir`, 'utf8')).trim();
  const roots = new Map<string, number>();
  const found = [
    ['PostgreSQL (events)', async () => pidIn(`${await pgdirOf('postgres')}/data/postmaster.pid`)],
    ['Kafka', async () => pidIn('.tmp/servers/kafka/pid')],
    ['FerretDB', async () => pidIn('.tmp/servers/ferretdb/pid')],
    ["FerretDB's PostgreSQL", async () => pidIn(`${await pgdirOf('ferretdb')}/data/postmaster.pid`)],
  ] as const;
  for (const [name, pid] of found)
    await pid().then(
      (n) => roots.set(name, n),
      () => undefined,
    );
  return roots;
}

const METRICS_TOKEN = 'bench-topology-metrics';

/** Appends every API process made so far, by outcome (ok, conflict: another process appended first), from /metrics. */
async function appendsOf(apis: readonly RoleProcess[]): Promise<{ ok: number; conflict: number }> {
  const counts = { ok: 0, conflict: 0 };
  for (const api of apis) {
    const text = await (await fetch(`${api.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    for (const outcome of ['ok', 'conflict'] as const) {
      const line = text.split('\n').find((l) => l.startsWith(`svc_event_store_append_duration_seconds_count{outcome="${outcome}"}`));
      counts[outcome] += Number(line?.split(' ').at(-1) ?? 0);
    }
  }
  return counts;
}

/** CPU seconds so far of every process of the topology and of every server under it. */
async function cpuOf(topology: Topology, servers: Map<string, number>): Promise<Map<string, number>> {
  const all = [topology.projections, ...topology.apis, ...topology.processors];
  const ours = all.map(async (p) => [p.name, p.pid() === undefined ? 0 : await cpuSecondsOf(p.pid()!)] as const);
  const theirs = [...servers].map(async ([name, pid]) => [name, await cpuSecondsOfTree(pid).catch(() => 0)] as const);
  return new Map(await Promise.all([...ours, ...theirs]));
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Non-2xx responses by status, and errors (timeouts, resets). */
  refused: Map<string, number>;
  /** Event store appends per screen made by the API processes: successful, and refused for a wrong expected revision. */
  appends: number;
  conflicts: number;
  /** CPU µs per screen, by process or server. */
  cpu: Map<string, number>;
}

async function measure(
  topology: Topology,
  servers: Map<string, number>,
  keys: readonly string[],
  apis: readonly RoleProcess[],
): Promise<Measurement> {
  const perApi = Math.max(1, Math.floor(CONNECTIONS / apis.length));
  await Promise.all(apis.map((api) => screens(api, keys, perApi, 2)));
  const [before, appendsBefore] = [await cpuOf(topology, servers), await appendsOf(topology.apis)];
  const results = await Promise.all(apis.map((api) => screens(api, keys, perApi, DURATION_S)));
  const [after, appendsAfter] = [await cpuOf(topology, servers), await appendsOf(topology.apis)];
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  const cpu = new Map([...after].map(([name, s]) => [name, ((s - (before.get(name) ?? 0)) * 1e6) / Math.max(1, total)]));
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    refused: refusedOf(results),
    appends: (appendsAfter.ok - appendsBefore.ok) / Math.max(1, total),
    conflicts: (appendsAfter.conflict - appendsBefore.conflict) / Math.max(1, total),
    cpu,
  };
}

function addCounts(into: Map<string, number>, from: Map<string, number>): Map<string, number> {
  for (const [key, n] of from) into.set(key, (into.get(key) ?? 0) + n);
  return into;
}

function refusedOf(results: readonly autocannon.Result[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of results) {
    for (const [status, stats] of Object.entries(r.statusCodeStats ?? {}))
      if (!status.startsWith('2')) addCounts(counts, new Map([[status, (stats as { count: number }).count]]));
    if (r.errors > 0) addCounts(counts, new Map([['errors', r.errors]]));
  }
  return counts;
}

const refusedText = (m: Measurement) =>
  m.non2xx === 0 ? '0' : `${m.non2xx} (${[...m.refused].map(([status, n]) => `${status}: ${n}`).join(', ')})`;

/** The mean of the rounds of one configuration (throughput and CPU), the worst of their latencies. */
function combine(rounds: readonly Measurement[]): Measurement {
  const mean = (f: (m: Measurement) => number) => rounds.reduce((sum, m) => sum + f(m), 0) / rounds.length;
  return {
    rps: mean((m) => m.rps),
    p50: Math.max(...rounds.map((m) => m.p50)),
    p99: Math.max(...rounds.map((m) => m.p99)),
    non2xx: rounds.reduce((sum, m) => sum + m.non2xx, 0),
    refused: rounds.reduce((all, m) => addCounts(all, m.refused), new Map<string, number>()),
    appends: mean((m) => m.appends),
    conflicts: mean((m) => m.conflicts),
    cpu: new Map([...rounds[0]!.cpu.keys()].map((name) => [name, mean((m) => m.cpu.get(name) ?? 0)])),
  };
}

const totalCpu = (m: Measurement) => [...m.cpu.values()].reduce((sum, us) => sum + us, 0);
const cpuLine = (m: Measurement) =>
  [...m.cpu].map(([name, us]) => `${name} ${Math.round(us)}`).join(', ') + ` (total ${Math.round(totalCpu(m))})`;

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

/** Funded accounts with a key each, made with the CLI as an operator would, a few at a time. */
async function accounts(topology: Topology): Promise<string[]> {
  const keys: string[] = [];
  for (let n = 0; n < ACCOUNTS; n += 5) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(5, ACCOUNTS - n) }, (_, i) =>
        topology.cli(topology.apis[0]!, [
          'account',
          'create',
          '--email',
          `bench-${n + i}@example.test`,
          '--org',
          'Bench',
          '--plan',
          'ledger',
          '--deposit',
          '10000000',
          '--with-key',
        ]),
      ),
    );
    keys.push(...batch.map((created) => (created.json as { api_key: string }).api_key));
  }
  // Each API folds the keys itself: wait until both know every one.
  for (const api of topology.apis)
    for (const key of keys)
      while (!(await fetch(`${api.url}/v2/balance`, { headers: { authorization: `Bearer ${key}` } })).ok)
        await new Promise((resolve) => setTimeout(resolve, 100));
  return keys;
}

async function main() {
  const { POSTGRES_URL, KAFKA_BROKERS, MONGO_URL } = process.env;
  if (!POSTGRES_URL || !KAFKA_BROKERS || !MONGO_URL) throw new Error('run it through npm run bench:topology (ci/with-servers.sh)');
  const loadBefore = loadavg()[0]!;
  const sources = await writeFullCheckSources();
  const topology = await startTopology(
    { postgresUrl: POSTGRES_URL, kafkaBrokers: KAFKA_BROKERS, mongoUrl: MONGO_URL },
    { apis: 2, processors: 2, env: { SVC_SOURCES_DIR: sources, LOG_LEVEL: 'warn', METRICS_TOKEN } },
  );
  try {
    const servers = await serverRoots();
    const keys = await accounts(topology);
    // The configurations take turns, ROUNDS times, so that the machine's other work weighs on each alike.
    const rounds = { one: [] as Measurement[], two: [] as Measurement[], oneAccount: [] as Measurement[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      rounds.one.push(await measure(topology, servers, keys, topology.apis.slice(0, 1)));
      rounds.two.push(await measure(topology, servers, keys, topology.apis));
      rounds.oneAccount.push(await measure(topology, servers, keys.slice(0, 1), topology.apis));
    }
    const [one, two, oneAccount] = [combine(rounds.one), combine(rounds.two), combine(rounds.oneAccount)];
    const loadDuring = loadavg()[0]!;
    const checks = await fullCheckTimes(topology.apis[0]!, keys[0]!);
    const median = checks[Math.floor(checks.length / 2)]!;
    const cores = cpus().length;
    const row = (what: string, m: Measurement) =>
      `| ${what} | ${Math.round(m.rps)} | ${m.p50} | ${m.p99} | ${refusedText(m)} | ${m.appends.toFixed(2)} | ${m.conflicts.toFixed(2)} | ${Math.round(totalCpu(m))} | ${Math.round((cores * 1e6) / totalCpu(m))} |`;
    const table = [
      `Measured by \`npm run bench:topology\` (${new Date().toISOString().slice(0, 10)}; ${cores} cores shared with other work, load average ${loadBefore.toFixed(1)} before the topology started and ${loadDuring.toFixed(1)} at the end of the screens; PostgreSQL 15 with synchronous_commit=on, Kafka 3.9 and FerretDB 1.24 on loopback, every process on this machine; ${CONNECTIONS} connections in total, ${ROUNDS} rounds of ${DURATION_S} s per row, taking turns, each after a 2 s warm-up):`,
      '',
      '| paid light screens | screens/s | p50 ms | p99 ms | non-2xx or errors | appends per screen | conflicts per screen | CPU µs per screen, all processes and servers | screens/s if the cores were ours alone |',
      '|---|---|---|---|---|---|---|---|---|',
      row(`through one API process, ${ACCOUNTS} accounts`, one),
      row(`through two API processes, ${ACCOUNTS} accounts`, two),
      row('through two API processes, one account', oneAccount),
      '',
      `Two / one: **${(two.rps / one.rps).toFixed(2)}**. CPU µs per screen, by process and server — one API: ${cpuLine(one)}; two APIs: ${cpuLine(two)}; two APIs, one account: ${cpuLine(oneAccount)}.`,
      `A full check end to end (POST, then its result polled every 10 ms until 200), ${FULL_CHECKS} one after another with nothing else of ours running: median ${Math.round(median)} ms, slowest ${Math.round(checks.at(-1)!)} ms.`,
    ].join('\n');
    process.stdout.write(`${table}\n`);
    for (const [status, body] of refusals) process.stderr.write(`first ${status} answered: ${body}\n`);
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
