import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { updateReadme } from '../support/readme-figures.js';
import { startRecordedProviders } from '../support/recorded-providers.js';

/**
 * bench:inspect — POST /v2/inspect-address end to end on the embedded default (fsync on): the request,
 * the relay and bus, the inspect processor calling the own engine and two HTTP providers (recorded
 * GoPlus and Chainalysis answers from a local server), the audit, and the charge on delivery. Every
 * request is a new inspect of another address. One connection gives the latency of a lone inspect,
 * sixteen the throughput. With --write-readme, writes the table into docs/benchmarks.md between the bench:inspect markers.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const KEY = `svc_${'I'.repeat(44)}`;
const addresses = Array.from({ length: 4096 }, (_, i) => madeUpEvmAddress(`bench-inspect-${i}`).toLowerCase());

async function load(port: number, connections: number) {
  let i = 0;
  const run = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      duration,
      requests: [
        {
          method: 'POST',
          path: '/v2/inspect-address',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ address: addresses[i++ % addresses.length], network: 'ETH' }) }),
        },
      ],
    });
  await run(2);
  const result = await run(DURATION_S);
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

async function main() {
  // The machine is shared: the 1-minute load average at the start says how quiet it was.
  const loadAverage = loadavg()[0]!.toFixed(1);
  const recorded = await startRecordedProviders();
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-inspect-'));
  const port = await freePort();
  const service = await spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SVC_SOURCES_DIR: '',
      SVC_SYNC_ON_START: '0',
      SVC_DEMO_API_KEY: KEY,
      SVC_DEMO_DEPOSIT_USD: '1000000',
      SVC_PROVIDER_A_URL: recorded.url,
      SVC_PROVIDER_B_URL: recorded.url,
      SVC_PROVIDER_B_KEY: 'bench-key',
    },
    /listening on/,
  );
  const sample = await fetch(`http://127.0.0.1:${port}/v2/inspect-address`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ address: madeUpEvmAddress('bench-sample').toLowerCase(), network: 'ETH' }),
  });
  const body = (await sample.json()) as { audit?: { providers_answered?: number } };
  if (sample.status !== 200 || body.audit?.providers_answered !== 3)
    throw new Error(`sample inspect failed: ${sample.status} ${JSON.stringify(body)}`);
  const lone = await load(port, 1);
  const busy = await load(port, 16);
  await stop(service.child);
  await recorded.close();
  await rm(dataDir, { recursive: true, force: true });

  const table = [
    `Measured by \`npm run bench:inspect\` (${new Date().toISOString().slice(0, 10)}, ${DURATION_S} s after a 2 s warm-up, autocannon on the same 2-core machine at load average ${loadAverage}; the own engine and two HTTP providers answering from a local recorded server, each request a new address):`,
    '',
    '| POST /v2/inspect-address (embedded, fsync, 3 providers, charged) | req/s | p50 ms | p99 ms | non-2xx |',
    '|---|---|---|---|---|',
    `| 1 connection | ${lone.rps} | ${lone.p50} | ${lone.p99} | ${lone.non2xx} |`,
    `| 16 connections | ${busy.rps} | ${busy.p50} | ${busy.p99} | ${busy.non2xx} |`,
  ].join('\n');
  process.stdout.write(`${table}\n`);
  await updateReadme('bench:inspect', table);
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
