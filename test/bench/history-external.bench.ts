import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * bench:history:external — the external mode's restart: does a restarted process read its history again?
 * Paid screens are written through the command layer in steps (BENCH_EXTERNAL_STEPS, default 0, 10k, 50k)
 * on the PostgreSQL event store (ci/with-servers.sh starts it; BENCH_EVENT_STORE=embedded keeps the embedded
 * log), the bus on Kafka and the read models in MongoDB (FerretDB here; BENCH_READ_STORE=embedded folds them
 * into LMDB instead, which fills a million events in minutes where FerretDB takes hours), and after each step
 * a fresh process restarts on the same servers, names and data directory (test/bench/restart-probe.ts). It
 * prints the events its projection runner read (the tail since its checkpoint, plus the dataset streams the
 * in-memory intelligence index is rebuilt from), the time to caught up, RSS, and the log's length. The
 * restarted process is ROLE=all: the one that folds the read models.
 */
const STEPS = (process.env.BENCH_EXTERNAL_STEPS ?? '0,10000,50000').split(',').map(Number);
const SOURCES = resolve(process.env.SVC_SOURCES_DIR ?? 'test/fixtures/sanctions-minimal');

function run(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => (code === 0 ? done(out) : reject(new Error(`${script} exited with ${code}`))));
  });
}

async function main() {
  if (process.env.BUS !== 'kafka' || process.env.READ_STORE !== 'mongo')
    throw new Error('run through ci/with-servers.sh: npm run bench:history:external');
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-history-external-'));
  const eventStore = process.env.BENCH_EVENT_STORE ?? 'postgres';
  const readStore = process.env.BENCH_READ_STORE ?? 'mongo';
  const env = {
    DATA_DIR: dataDir,
    SVC_SOURCES_DIR: SOURCES,
    EVENT_STORE: eventStore,
    READ_STORE: readStore,
    POSTGRES_SCHEMA: `bench_history_${process.pid}`,
    MONGO_DB: `bench_history_${process.pid}`,
    KAFKA_PREFIX: `bench${process.pid}.`,
    USERS: '200',
  };
  const rows: string[] = [];
  try {
    for (const step of STEPS) {
      const fillStarted = performance.now();
      await run('test/bench/history-fill.ts', { ...env, TARGET: String(step) });
      const fillS = (performance.now() - fillStarted) / 1000;
      const probe = JSON.parse((await run('test/bench/restart-probe.ts', env)).trim().split('\n').at(-1) ?? '{}') as {
        eventsRead: number;
        caughtUpMs: number;
        rssMb: number;
        logEvents: number;
      };
      const row = `| ${step.toLocaleString('en-US')} | ${probe.logEvents.toLocaleString('en-US')} | ${probe.eventsRead.toLocaleString('en-US')} | ${(probe.caughtUpMs / 1000).toFixed(1)} | ${probe.rssMb} | ${fillS.toFixed(0)} |`;
      rows.push(row);
      process.stdout.write(`${row}\n`);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(
    [
      '',
      `Measured by \`npm run bench:history:external\` (${new Date().toISOString().slice(0, 10)}; event store ${eventStore === 'postgres' ? 'PostgreSQL 15 (synchronous_commit=on)' : 'embedded'}, Kafka 3.9, read models ${readStore === 'mongo' ? 'in FerretDB 1.24' : 'in LMDB'}, on loopback; load average ${loadavg()[0]!.toFixed(1)} at the end; data sets: ${SOURCES.endsWith('sanctions-minimal') ? 'the test sanctions fixture' : SOURCES}):`,
      '',
      '| paid screens so far | events in the log | events read at restart | restart to caught up s | RSS MB | fill s |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
