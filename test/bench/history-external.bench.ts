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
 * a fresh process restarts on the same servers, names and data directory (test/bench/restart-probe.ts),
 * BENCH_RESTARTS times (3), each after a restart of an empty twin (the data sets only) on the same servers. It
 * prints the events its projection runner read (the tail since its checkpoint, plus the dataset streams the
 * in-memory intelligence index is rebuilt from), the time to caught up, RSS, and the log's length. The
 * restarted process is ROLE=all: the one that folds the read models.
 */
const STEPS = (process.env.BENCH_EXTERNAL_STEPS ?? '0,10000,50000').split(',').map(Number);
const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 3);
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

interface Probe {
  eventsRead: number;
  caughtUpMs: number;
  rssMb: number;
  logEvents: number;
}

/** One deployment's names on the servers and its data directory. */
async function deployment(name: string) {
  const eventStore = process.env.BENCH_EVENT_STORE ?? 'postgres';
  const readStore = process.env.BENCH_READ_STORE ?? 'mongo';
  const id = `${name}_${process.pid}`;
  return {
    DATA_DIR: await mkdtemp(join(tmpdir(), `bench-history-external-${name}-`)),
    SVC_SOURCES_DIR: SOURCES,
    EVENT_STORE: eventStore,
    READ_STORE: readStore,
    POSTGRES_SCHEMA: `bench_history_${id}`,
    MONGO_DB: `bench_history_${id}`,
    KAFKA_PREFIX: `bench-${id}.`,
    USERS: '200',
  };
}

const probe = async (env: Record<string, string>): Promise<Probe> =>
  JSON.parse((await run('test/bench/restart-probe.ts', env)).trim().split('\n').at(-1) ?? '{}') as Probe;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main() {
  if (process.env.BUS !== 'kafka' || process.env.READ_STORE !== 'mongo')
    throw new Error('run through ci/with-servers.sh: npm run bench:history:external');
  // The filled deployment, and an empty twin (the data sets only) restarted in turn with it, so that both
  // restarts meet the same load on this shared machine.
  const filled = await deployment('filled');
  const empty = await deployment('empty');
  const rows: string[] = [];
  try {
    await run('test/bench/history-fill.ts', { ...empty, TARGET: '0' });
    for (const step of STEPS) {
      const fillStarted = performance.now();
      await run('test/bench/history-fill.ts', { ...filled, TARGET: String(step) });
      const fillS = (performance.now() - fillStarted) / 1000;
      const probes: { filled: Probe; empty: Probe }[] = [];
      for (let n = 0; n < RESTARTS; n += 1) probes.push({ empty: await probe(empty), filled: await probe(filled) });
      const last = probes.at(-1)!.filled;
      const restartS = median(probes.map((p) => p.filled.caughtUpMs)) / 1000;
      const emptyS = median(probes.map((p) => p.empty.caughtUpMs)) / 1000;
      const row = `| ${step.toLocaleString('en-US')} | ${last.logEvents.toLocaleString('en-US')} | ${last.eventsRead.toLocaleString('en-US')} | ${restartS.toFixed(2)} | ${emptyS.toFixed(2)} | ${(restartS / emptyS).toFixed(2)} | ${median(probes.map((p) => p.filled.rssMb))} | ${fillS.toFixed(0)} |`;
      rows.push(row);
      process.stdout.write(`${row}\n`);
    }
  } finally {
    await rm(filled.DATA_DIR, { recursive: true, force: true });
    await rm(empty.DATA_DIR, { recursive: true, force: true });
  }
  const table = [
    `Measured by \`npm run bench:history:external\` (${new Date().toISOString().slice(0, 10)}; event store ${filled.EVENT_STORE === 'postgres' ? 'PostgreSQL 15 (synchronous_commit=on)' : 'embedded'}, Kafka 3.9, read models ${filled.READ_STORE === 'mongo' ? 'in FerretDB 1.24' : 'in LMDB'}, on loopback; load average ${loadavg()[0]!.toFixed(1)} at the end; data sets: ${SOURCES.endsWith('sanctions-minimal') ? 'the test sanctions fixture' : SOURCES}; restart times are medians of ${RESTARTS}, each after a restart of the empty twin):`,
    '',
    "| paid screens so far | events in the log | events read at restart | restart to caught up s | empty twin's restart s | ratio | RSS MB | fill s |",
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  process.stdout.write(`\n${table}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
