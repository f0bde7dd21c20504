import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { DEMO_EMAIL } from '../../infra/startup/demo-account.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { DEMO_SOURCES, mineDemoChain, type DemoChain } from './kyt-demo-chain.js';

/**
 * `npm run demo:kyt [-- --exit]`: the whole product on made-up data, for a newcomer. A local chain (anvil)
 * with the demo's transactions (kyt-demo-chain.ts: a sanctioned sender, a sender funded by it one hop
 * earlier, an exchange), the service started on it (npm start's code, the repository's own fixture data
 * sets as SVC_SOURCES_DIR, the chain indexed by the block ingester), a colleague added through the
 * operator CLI, the three transfers checked and one address watched with the demo account's key. Then it
 * prints where to look (the alerts to triage, each check's evidence) and keeps the service running until
 * Ctrl-C; `--exit` stops once it has printed. Nothing leaves 127.0.0.1; the data directory is temporary.
 */
const say = (line = '') => process.stdout.write(`${line}\n`);
const COLLEAGUE = { email: 'ana.lima@demo.localhost', name: 'Ana Lima' };

/** 8080 (npm start's port) when it is free, else any free port; PORT chooses. */
async function choosePort(): Promise<number> {
  if (process.env.PORT) return Number(process.env.PORT);
  const probe = await import('node:net');
  const free = await new Promise<boolean>((resolve) => {
    const server = probe.createServer().once('error', () => resolve(false));
    server.listen(8080, '127.0.0.1', () => server.close(() => resolve(true)));
  });
  return free ? 8080 : freePort();
}

/** The operator CLI against the running service (it finds it by DATA_DIR): its JSON answer. */
function cli(dataDir: string, ...argv: string[]): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'infra/cli/main.ts', ...argv],
      { env: { ...process.env, DATA_DIR: dataDir }, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`cli ${argv.join(' ')} failed: ${stderr || stdout || error.message}`));
        resolve(JSON.parse(stdout) as Record<string, any>);
      },
    );
  });
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function run(anvil: Anvil, dataDir: string, exitWhenDone: boolean) {
  const chain: DemoChain = await mineDemoChain(anvil.rpcUrl);
  const head = Number(await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlockNumber());
  say(`chain      anvil ${anvil.rpcUrl}: ${chain.transfers.length} transfers to check, mined up to block ${head}`);
  for (const t of chain.transfers) say(`           ${t.name.padEnd(10)} ${t.what}`);

  const port = await choosePort();
  const password = process.env.SVC_DEMO_PASSWORD || `demo-${randomBytes(6).toString('hex')}`;
  say(`service    starting on port ${port} (data sets: ${DEMO_SOURCES}; data in ${dataDir})…`);
  const service = await spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SVC_SYNC_ON_START: '0',
      SVC_SOURCES_DIR: DEMO_SOURCES,
      SVC_DEMO_PASSWORD: password,
      CHAIN_RPC_ETH: anvil.rpcUrl,
      SVC_INGEST_RPC_URL: anvil.rpcUrl,
      SVC_INGEST_POLL_MS: '500',
    },
    /listening on/,
    300_000,
  );
  try {
    const key = /demo api key: (svc_\S+)/.exec(service.output.join(''))?.[1];
    if (!key) throw new Error(`the service printed no demo key:\n${service.output.join('')}`);
    const base = `http://127.0.0.1:${port}`;
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };

    // The graph search reads the indexed chain: wait until the ingester has the demo's blocks.
    await waitFor('the block ingester', async () => {
      const coverage = await cli(dataDir, 'transfers', 'coverage', '--network', 'ETH');
      return (coverage.ingester?.last_block ?? -1) >= head ? true : null;
    });
    say(`indexed    blocks 0 to ${head} of the chain (npm run cli -- transfers coverage)`);

    const demo = await cli(dataDir, 'account', 'show', '--email', DEMO_EMAIL);
    const subgroupId = String(demo.memberships[0].subgroup_id);
    const colleague = await cli(dataDir, 'account', 'create', '--email', COLLEAGUE.email, '--name', COLLEAGUE.name, '--plan', 'none');
    await cli(dataDir, 'account', 'join', '--user', String(colleague.user_id), '--subgroup', subgroupId);
    say(`colleague  ${COLLEAGUE.name} <${COLLEAGUE.email}> joined the demo's subgroup (npm run cli -- account create / account join)`);

    let alerts = 0;
    const pages: string[] = [];
    for (const t of chain.transfers) {
      const checked = await api('POST', '/v2/check-transfer', { chain: 'ETH', tx_hash: t.txHash });
      if (checked.status !== 200) throw new Error(`the check of ${t.name} answered ${checked.status}: ${JSON.stringify(checked.body)}`);
      const policy = checked.body.policy_result;
      alerts += Number(policy.alert_count);
      pages.push(`${base}/checks/transfer/${checked.body.check_id}`);
      const fired = (policy.alerts as { riskLevel: string; ruleType: string }[]).map((a) => `${a.riskLevel} ${a.ruleType}`).join(', ');
      say(`checked    ${t.name.padEnd(10)} ${String(policy.recommended_action).padEnd(6)} ${fired || 'no alert'}  ${pages.at(-1)}`);
    }
    const watched = await api('POST', '/v2/monitors', { address: chain.middle, network: 'ETH', reference: 'demo: the fresh wallet' });
    if (watched.status !== 201) throw new Error(`watching answered ${watched.status}: ${JSON.stringify(watched.body)}`);
    const cases = await waitFor('the alert cases', async () => {
      const listed = await api('GET', '/v2/alerts');
      return listed.body.pagination?.total === alerts ? listed.body.pagination.total : null;
    });

    say();
    say(`dashboard  ${base}/   log in as ${DEMO_EMAIL}, password ${password}`);
    say(`alerts     ${base}/alerts   ${cases} open case(s) to triage: open one, assign it to ${COLLEAGUE.name}, print its report`);
    say(`checks     ${base}/history   every check, each with its evidence page`);
    say(`monitors   ${base}/monitors   one address watched`);
    say(`api        ${base}/docs   key ${key}`);
    if (exitWhenDone) return;
    say();
    say('The service keeps running: press Ctrl-C to stop it (the demo data is deleted).');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  } finally {
    await stop(service.child);
  }
}

async function main() {
  const anvil = await startAnvil({ chainId: 31337 });
  const dataDir = await mkdtemp(join(tmpdir(), 'kyt-demo-'));
  try {
    await run(anvil, dataDir, process.argv.includes('--exit'));
  } finally {
    await anvil.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
