import type { ChildProcess } from 'node:child_process';
import { auditLedgers } from '../../infra/cli/ledger-audit.js';
import type { Services } from '../../infra/bootstrap.js';
import { DEMO_EMAIL } from '../../infra/startup/demo-account.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';
import { freePort, spawnTsx, stop } from './processes.js';

/**
 * kill -9 during a load of paid screens, restart, retry what was not acknowledged with the same
 * Idempotency-Key: the cycle crash-recovery.e2e runs on an empty data directory and bench:crash-history on
 * one holding a million events. The demo account pays; `auditDemoLedger` then says whether anything
 * acknowledged was lost or charged twice.
 */
export const DEMO_KEY = `svc_${'K'.repeat(44)}`;
const DEMO_DEPOSIT_USD = 1000;
const SCREEN_MICROS = 100_000;
const IN_FLIGHT = 16;

export interface KillCycles {
  readonly acknowledged: Set<string>;
  /** Milliseconds from spawn to listening, for every start after a kill. */
  readonly restartsMs: number[];
}

export async function startService(dataDir: string, port: number): Promise<{ child: ChildProcess; ms: number }> {
  const started = performance.now();
  const { child } = await spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Warnings and errors only: what a start that never gets ready says goes into the failure's message.
      LOG_LEVEL: 'warn',
      SVC_DEMO_API_KEY: DEMO_KEY,
      SVC_DEMO_DEPOSIT_USD: String(DEMO_DEPOSIT_USD),
      SVC_SOURCES_DIR: MINIMAL_SANCTIONS_DIR,
    },
    /listening on/,
  );
  return { child, ms: performance.now() - started };
}

const addressOf = (key: string) => '0x' + Number(key.split('-')[1]).toString(16).padStart(40, '0');

async function screen(port: number, idempotencyKey: string) {
  const response = await fetch(`http://127.0.0.1:${port}/v2/screen`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_KEY}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ address: addressOf(idempotencyKey), network: 'ETH' }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Screens from IN_FLIGHT clients until `count` more are acknowledged (or 30 s pass), then SIGKILL mid-load. */
async function loadThenKill(
  child: ChildProcess,
  port: number,
  state: { acknowledged: Set<string>; unacknowledged: Set<string>; sequence: number },
  count: number,
) {
  let killed = false;
  const worker = async () => {
    while (!killed) {
      const key = `call-${++state.sequence}`;
      state.unacknowledged.add(key);
      try {
        if ((await screen(port, key)) === 200) {
          state.unacknowledged.delete(key);
          state.acknowledged.add(key);
        }
      } catch {
        // the process died with this call in flight: it stays unacknowledged
      }
    }
  };
  const workers = Array.from({ length: IN_FLIGHT }, worker);
  const target = state.acknowledged.size + count;
  const deadline = Date.now() + 30_000;
  while (state.acknowledged.size < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  killed = true;
  await Promise.all(workers);
  await exited;
}

/** Retries what the previous crash left unacknowledged, with the same key and body; throws on any other answer than 200. */
async function retryStragglers(port: number, state: { acknowledged: Set<string>; unacknowledged: Set<string> }) {
  for (const key of [...state.unacknowledged]) {
    const status = await screen(port, key);
    if (status !== 200) throw new Error(`retry of ${key} answered ${status}`);
    state.unacknowledged.delete(key);
    state.acknowledged.add(key);
  }
}

/** `rounds` kills under load (round r waits for 150 + 50r acknowledged screens), then a last start that retries and stops cleanly. */
export async function runKillCycles(dataDir: string, rounds: number): Promise<KillCycles> {
  const state = { acknowledged: new Set<string>(), unacknowledged: new Set<string>(), sequence: 0 };
  const restartsMs: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const port = await freePort();
    const { child, ms } = await startService(dataDir, port);
    if (round > 0) restartsMs.push(ms);
    await retryStragglers(port, state);
    if (round === rounds) await stop(child);
    else await loadThenKill(child, port, state, 150 + round * 50);
  }
  return { acknowledged: state.acknowledged, restartsMs };
}

/** The ledger audit of the whole directory, and the demo account's charges and balance replayed from its ledger. */
export async function auditDemoLedger(services: Services) {
  const report = await auditLedgers(services);
  const demo = await services.repositories.accounts.byEmail(DEMO_EMAIL);
  const replayed = report.accounts.find((a) => a.user_id === demo?.userId)?.replayed;
  if (!replayed) throw new Error('no demo account in the audit');
  return { mismatches: report.mismatches, charges: replayed.charges, balanceMicros: replayed.balance_micros };
}

/** The demo account's balance after `charges` screens. */
export const demoBalanceAfter = (charges: number) => DEMO_DEPOSIT_USD * 1_000_000 - charges * SCREEN_MICROS;
