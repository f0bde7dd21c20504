import autocannon from 'autocannon';
import { readFile, readdir, rm, stat, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillPaidScreens } from './fill-paid-screens.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';

/**
 * bench:history — does the service's footprint grow with its history? Paid screens are written through
 * the command layer in steps (default 0, 250k, 1M: BENCH_HISTORY_STEPS), and after each step a fresh
 * `npm start` process is measured on the data directory: time from spawn to a healthy /v2/health, RSS
 * once started, disk use, and POST /v2/screen throughput against a bare Fastify route in the same run.
 * With the shipped data sets (SVC_SOURCES_DIR). Prints a table; writes nothing.
 */
const STEPS = (process.env.BENCH_HISTORY_STEPS ?? '0,250000,1000000').split(',').map(Number);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const SOURCES = process.env.SVC_SOURCES_DIR ?? join(process.cwd(), '..', 'shared', 'data');
const KEY = `svc_${'H'.repeat(44)}`;

async function du(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    total += entry.isDirectory() ? await du(full) : (await stat(full)).size;
  }
  return total;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

async function screens(port: number, headers: Record<string, string>) {
  let i = 0;
  const run = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: 16,
      duration,
      requests: [
        {
          method: 'POST',
          path: '/v2/screen',
          headers: { 'content-type': 'application/json', ...headers },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ address: '0x' + (++i % 4096).toString(16).padStart(40, '0'), network: 'ETH' }),
          }),
        },
      ],
    });
  await run(1);
  const result = await run(DURATION_S);
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, non2xx: result.non2xx + result.errors + result.timeouts };
}

async function measure(dataDir: string) {
  const port = await freePort();
  const started = performance.now();
  const service = await spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SVC_DEMO_API_KEY: KEY,
      SVC_DEMO_DEPOSIT_USD: '1000000',
      SVC_SOURCES_DIR: SOURCES,
      SVC_SYNC_ON_START: '0',
    },
    /listening on/,
  );
  for (;;) {
    const health = await fetch(`http://127.0.0.1:${port}/v2/health`).catch(() => null);
    if (health?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const healthyS = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rss = await rssMb(service.child.pid!);
  // One screen on its own first: its status and time (a cold ledger, a slow first answer) are printed.
  const firstStarted = performance.now();
  const first = await fetch(`http://127.0.0.1:${port}/v2/screen`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ address: '0x' + '1'.padStart(40, '0'), network: 'ETH' }),
    signal: AbortSignal.timeout(60_000),
  }).then(
    async (r) => `${r.status} ${(await r.text()).slice(0, 120)}`,
    (error: unknown) => String(error),
  );
  process.stdout.write(`  first screen: ${first} in ${Math.round(performance.now() - firstStarted)} ms\n`);
  const screen = await screens(port, { authorization: `Bearer ${KEY}` });
  await stop(service.child);
  const barePort = await freePort();
  const bare = await spawnTsx('test/bench/bare-server.ts', { PORT: String(barePort), BODY_BYTES: '1500' }, /ready/);
  const baseline = await screens(barePort, {});
  await stop(bare.child);
  return { healthyS, rss, screen, baseline };
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-history-'));
  const rows: string[] = [];
  try {
    for (const step of STEPS) {
      await fillPaidScreens(dataDir, step, SOURCES);
      const m = await measure(dataDir);
      const disk = await du(dataDir);
      const row = `| ${step.toLocaleString('en-US')} | ${m.healthyS.toFixed(1)} | ${m.rss} | ${(disk / 1e6).toFixed(0)} | ${m.screen.rps} | ${m.screen.p99} | ${m.screen.non2xx} | ${m.baseline.rps} | ${(m.screen.rps / m.baseline.rps).toFixed(2)} |`;
      process.stdout.write(`${row}\n`);
      rows.push(row);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const table = [
    `Measured by \`npm run bench:history\` (${new Date().toISOString().slice(0, 10)}; paid screens written through the command layer over 1,000 accounts; each step then measured on a fresh \`npm start\` process with the shipped data sets; screens: 16 connections, ${DURATION_S} s, autocannon on the same 2-core machine):`,
    '',
    '| paid screens so far | start to healthy s | RSS after start MB | disk MB | screen req/s | screen p99 ms | screen non-2xx, errors, timeouts | bare route req/s | ratio |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  process.stdout.write(`\n${table}\n`);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
