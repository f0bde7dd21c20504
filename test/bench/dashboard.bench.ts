import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { updateReadme } from '../support/readme-figures.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';

/**
 * bench:dashboard — the dashboard on the real service (embedded default, fsync, production scrypt cost):
 * login (scrypt N=2^17 plus the session's event), and the three pages rendered from the read models with
 * realistic content: 2,000 usage rows behind the usage page, a webhook with a full 100-attempt history.
 * Prints a table; with --write-readme, also writes it into docs/benchmarks.md between the bench:dashboard markers.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const LOGIN_CONNECTIONS = 2;
const KEY = `svc_${'D'.repeat(44)}`;
const PASSWORD = 'bench password for the demo';
const USAGE_ROWS = 2000;
const HISTORY = 100;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  bytes: number;
}

async function measure(base: string, request: autocannon.Request, connections: number): Promise<Figures> {
  const run = (duration: number) => autocannon({ url: base, connections, duration, requests: [request] });
  await run(2);
  const result = await run(DURATION_S);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    bytes: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
  };
}

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((c) => new RegExp(`^${name}=([^;]+)`).exec(c)?.[1])
    .find(Boolean)!;

async function main() {
  // Other work on the machine shows in every figure (scrypt most of all): the table says how busy it was.
  const load = loadavg()[0]!.toFixed(1);
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-dashboard-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const receiver = await startReceiver();
  const service = await spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SVC_SYNC_ON_START: '0',
      SVC_SOURCES_DIR: MINIMAL_SANCTIONS_DIR, // screening fails closed without a sanctions list
      SVC_DEMO_API_KEY: KEY,
      SVC_DEMO_PASSWORD: PASSWORD,
      SVC_DEMO_DEPOSIT_USD: '1000000',
      WEBHOOK_ALLOW_LOCAL: '1',
    },
    /listening on/,
  );
  try {
    // The login form's double-submit token is valid for an hour: one form serves every login below.
    const form = await fetch(`${base}/login`);
    const loginCsrf = cookieOf(form, 'svc_login_csrf');
    const loginBody = new URLSearchParams({ email: 'demo@localhost', password: PASSWORD, csrf: loginCsrf }).toString();
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_login_csrf=${loginCsrf}` },
      body: loginBody,
    });
    const cookie = `svc_session=${cookieOf(login, 'svc_session')}`;
    const keysPage = await (await fetch(`${base}/account/api`, { headers: { cookie } })).text();
    const csrf = /name="csrf-token" content="([0-9a-f]+)"/.exec(keysPage)![1]!;
    const api = (path: string, body: object) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    for (let i = 0; i < USAGE_ROWS; i++) {
      const screened = await fetch(`${base}/v2/screen`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ address: '0x' + (i + 1).toString(16).padStart(40, '0'), network: 'ETH' }),
      });
      if (screened.status !== 200) throw new Error(`screen answered ${screened.status}`);
    }
    const webhook = (await (await api('/api/webhooks', { url: receiver.url, event_types: ['tx.policy.alert.triggered'] })).json()) as {
      id: string;
    };
    for (let i = 0; i < HISTORY; i++) await api('/api/webhooks/test', { subscription_id: webhook.id });
    await receiver.waitFor(HISTORY, 60_000);

    const get = (path: string): autocannon.Request => ({ method: 'GET', path, headers: { cookie } });
    const rows = [
      [
        'POST /login (scrypt N=2^17, session event fsynced)',
        await measure(
          base,
          {
            method: 'POST',
            path: '/login',
            headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_login_csrf=${loginCsrf}` },
            body: loginBody,
          },
          LOGIN_CONNECTIONS,
        ),
        LOGIN_CONNECTIONS,
      ],
      ['GET /account/api (keys)', await measure(base, get('/account/api'), CONNECTIONS), CONNECTIONS],
      [`GET /account/usage (${USAGE_ROWS} rows, 30-day charts)`, await measure(base, get('/account/usage'), CONNECTIONS), CONNECTIONS],
      [`GET /webhooks (1 webhook, ${HISTORY}-attempt history)`, await measure(base, get('/webhooks'), CONNECTIONS), CONNECTIONS],
    ] as const;
    const table = [
      `Measured by \`npm run bench:dashboard\` (${new Date().toISOString().slice(0, 10)}, ${DURATION_S} s after a 2 s warm-up, autocannon on the same 2-core machine as the service, load average ${load} when it started; logins answer 303, counted as non-2xx):`,
      '',
      '| request | connections | req/s | p50 ms | p99 ms | non-2xx | bytes |',
      '|---|---|---|---|---|---|---|',
      ...rows.map(([name, f, c]) => `| ${name} | ${c} | ${f.rps} | ${f.p50} | ${f.p99} | ${f.non2xx} | ${f.bytes} |`),
    ].join('\n');
    process.stdout.write(`${table}\n`);
    await updateReadme('bench:dashboard', table);
  } finally {
    await stop(service.child);
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
