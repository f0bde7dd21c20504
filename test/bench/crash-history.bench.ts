import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';
import { auditDemoLedger, demoBalanceAfter, runKillCycles, startService } from '../support/kill-cycles.js';
import { fillPaidScreens } from './fill-paid-screens.js';
import { freePort, stop } from '../support/processes.js';

/**
 * bench:crash-history: the kill -9 cycles of crash-recovery.e2e (paid screens from 16 clients, SIGKILL
 * mid-load, restart, retry the unacknowledged with the same Idempotency-Key) on an empty data directory and
 * on one that already holds BENCH_SCREENS paid screens (default 1,000,000, each a ledger event, by 1,000
 * accounts). Prints, for each, the clean start and the restarts after a kill, and what the ledger audit
 * found: nothing acknowledged lost, nothing charged twice. Fails if either is not so.
 */
const SCREENS = Number(process.env.BENCH_SCREENS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function cleanStartMs(dataDir: string): Promise<number> {
  const { child, ms } = await startService(dataDir, await freePort());
  await stop(child);
  return ms;
}

async function measure(label: string, dataDir: string) {
  const cleanStart = await cleanStartMs(dataDir);
  const { acknowledged, restartsMs } = await runKillCycles(dataDir, ROUNDS);
  const services = await createServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  await services.start();
  try {
    const demo = await auditDemoLedger(services);
    const lost = Math.max(0, acknowledged.size - demo.charges);
    const doubled = Math.max(0, demo.charges - acknowledged.size);
    const row = {
      data_directory: label,
      clean_start_ms: Math.round(cleanStart),
      restart_after_kill_ms: restartsMs.map(Math.round),
      restart_after_kill_median_ms: Math.round(median(restartsMs)),
      acknowledged: acknowledged.size,
      charged: demo.charges,
      lost,
      doubled,
      ledger_mismatches: demo.mismatches,
      balance_as_expected: demo.balanceMicros === demoBalanceAfter(acknowledged.size),
    };
    console.log(JSON.stringify(row));
    if (lost || doubled || demo.mismatches || !row.balance_as_expected)
      throw new Error(`${label}: the kill -9 cycles lost or doubled a charge`);
    return row;
  } finally {
    await services.close();
  }
}

const dirs = [await mkdtemp(join(tmpdir(), 'bench-crash-empty-')), await mkdtemp(join(tmpdir(), 'bench-crash-full-'))];
try {
  console.log(`filling ${SCREENS} paid screens`);
  await fillPaidScreens(dirs[1]!, SCREENS, MINIMAL_SANCTIONS_DIR);
  const empty = await measure('empty', dirs[0]!);
  const full = await measure(`${SCREENS} paid screens`, dirs[1]!);
  console.log(
    JSON.stringify({
      restart_after_kill_full_over_empty: Number((full.restart_after_kill_median_ms / empty.restart_after_kill_median_ms).toFixed(2)),
      clean_start_full_over_empty: Number((full.clean_start_ms / empty.clean_start_ms).toFixed(2)),
      goal: 'restart within 1.25x of the empty directory, nothing lost or doubled',
      load_average: loadavg()
        .map((l) => l.toFixed(2))
        .join(' / '),
    }),
  );
} finally {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}
