import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EventData, EventStore } from '../../domain/ports/event-store.port.js';
import { updateReadme } from '../support/readme-figures.js';

/**
 * bench:log — what the embedded event store costs after a restart, as the log grows. For each size N
 * it appends N events of ~600 bytes (two per append, like a Charged and its usage event) across 10,000
 * streams in a child process (with `--bus` naming an older checkout's file bus, each append is also published
 * to it, as that checkout's relay did: today the embedded bus is the log itself, infra/embedded/log-bus); then
 * opens them in a fresh process and prints open time, RSS after a gc, and disk use.
 *   npm run bench:log [-- --sizes 0,200000,1000000] [--write-readme]
 *     [--store /path/to/lmdb-event-store.ts --bus /path/to/file-message-bus.ts]
 *     [--migrate-from /path/to/an/older/file-event-store.ts]
 * `--store`/`--bus` run the same bench against another checkout's adapters (e.g. main's, for the figures
 * before; a module exporting openFileEventStore, the framed-log store, works too). `--migrate-from` fills
 * the directory with that older store instead and times the first open of this store on it, which
 * migrates it (legacy-data-dir.ts).
 */
const here = fileURLToPath(new URL('.', import.meta.url));
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 1) {
  const value = process.argv[i + 1];
  const flag = value === undefined || value.startsWith('--');
  args.set(process.argv[i]!.replace(/^--/, ''), flag ? '1' : value);
  if (!flag) i += 1;
}
const storeModule = resolve(args.get('store') ?? join(here, '../../infra/embedded/lmdb-event-store.ts'));
const busModule = args.has('bus') ? resolve(args.get('bus')!) : null;
const STREAMS = 10_000;
const CONCURRENT_APPENDS = 64;

type OpenStore = (dir: string, options?: { fsync?: boolean; legacyDataDir?: string }) => Promise<EventStore>;
interface StoreModule {
  openLmdbEventStore?: OpenStore;
  /** The framed-log store's (main before the LMDB store). */
  openFileEventStore?: OpenStore;
}
const legacyModule = args.get('migrate-from');

async function openerOf(module: string): Promise<OpenStore> {
  const loaded = (await import(pathToFileURL(resolve(module)).href)) as StoreModule;
  const open = loaded.openLmdbEventStore ?? loaded.openFileEventStore;
  if (!open) throw new Error(`${module} exports no event store`);
  return open;
}
interface BusModule {
  openFileMessageBus(dir: string): Promise<{ publish(topic: string, m: unknown[]): Promise<void>; close(): Promise<void> }>;
}

/** An older checkout's file bus under dir/bus (`--bus`), else none. */
async function openBus(dir: string) {
  if (busModule === null) return null;
  const { openFileMessageBus } = (await import(pathToFileURL(busModule).href)) as BusModule;
  return openFileMessageBus(join(dir, 'bus'));
}

const padding = 'x'.repeat(330);
function paidCall(i: number): EventData[] {
  const metadata = { correlationId: randomUUID(), occurredAt: new Date().toISOString(), schemaVersion: 1 };
  return [
    {
      id: randomUUID(),
      type: 'Charged',
      data: { callId: randomUUID(), amountUsd: '0.50', address: `0x${i.toString(16).padStart(40, '0')}`, note: padding },
      metadata,
    },
    {
      id: randomUUID(),
      type: 'UsageRecorded',
      data: { endpoint: '/v1/screen', units: 1, at: new Date().toISOString(), note: padding },
      metadata,
    },
  ];
}

async function fill(dir: string, events: number): Promise<void> {
  const openStore = await openerOf(legacyModule ?? storeModule);
  const bus = await openBus(dir);
  const store = await openStore(join(dir, 'events'), { fsync: false });
  const appends = Math.ceil(events / 2);
  for (let from = 0; from < appends; from += CONCURRENT_APPENDS) {
    const round: Promise<unknown>[] = [];
    for (let i = from; i < Math.min(appends, from + CONCURRENT_APPENDS); i += 1) {
      const batch = paidCall(i);
      round.push(store.append(`account-${i % STREAMS}`, batch, { expected: 'any' }));
      if (bus)
        round.push(
          bus.publish(
            'events',
            batch.map((e) => ({ key: `account-${i % STREAMS}`, value: e, headers: {} })),
          ),
        );
    }
    await Promise.all(round);
  }
  await store.close();
  await bus?.close();
}

/** Opens the store (after a fill by this store, or, migrating, by an older one) and the bus in this fresh process. */
async function reopen(dir: string, migrating: boolean): Promise<void> {
  const openStore = await openerOf(storeModule);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  const base = process.memoryUsage().rss;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const store = migrating ? await openStore(join(dir, 'store'), { legacyDataDir: dir }) : await openStore(join(dir, 'events'));
  const storeMs = performance.now() - started;
  const bus = await openBus(dir);
  const openMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  gc();
  const rss = process.memoryUsage().rss;
  // A sanity read: the store answers after the restart.
  const revision = await store.streamRevision('account-1');
  await store.close();
  await bus?.close();
  process.stdout.write(`${JSON.stringify({ storeMs, openMs, cpuMs, rss, base, revision: String(revision) })}\n`);
}

function du(path: string): number {
  const out = spawnSync('du', ['-sb', path], { encoding: 'utf8' }).stdout;
  return Number(out.split('\t')[0] ?? 0);
}

function child(mode: string, dir: string, events: number): string {
  const run = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--max-old-space-size=8192',
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--child',
      mode,
      '--dir',
      dir,
      '--events',
      String(events),
      '--store',
      storeModule,
      ...(busModule ? ['--bus', busModule] : []),
      ...(legacyModule ? ['--migrate-from', legacyModule] : []),
    ],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  if (run.status !== 0) throw new Error(`${mode} child failed: ${run.stderr}`);
  return run.stdout;
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

async function main(): Promise<void> {
  const mode = args.get('child');
  if (mode === 'fill') return fill(args.get('dir')!, Number(args.get('events')));
  if (mode === 'reopen') return reopen(args.get('dir')!, false);
  if (mode === 'migrate') return reopen(args.get('dir')!, true);
  const sizes = (args.get('sizes') ?? '0,200000,1000000').split(',').map(Number);
  console.log(`bench:log — store ${storeModule}\n            bus   ${busModule ?? 'none (the log is the bus)'}`);
  if (legacyModule) console.log(`            filled by ${legacyModule}, then migrated at the first open`);
  const lines: string[] = [];
  const print = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  const opens = legacyModule ? 'first open, migrating' : 'open';
  print(
    `| events | event store on disk | bus on disk | fill s | ${opens} store ms | ${opens} store+bus ms | open CPU ms | RSS after open (MB, after gc) |`,
  );
  print(`|---:|---:|---:|---:|---:|---:|---:|---:|`);
  for (const events of sizes) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-log-'));
    try {
      const filling = performance.now();
      child('fill', dir, events);
      const fillS = (performance.now() - filling) / 1000;
      const opened = JSON.parse(
        child(legacyModule ? 'migrate' : 'reopen', dir, events)
          .trim()
          .split('\n')
          .pop()!,
      ) as {
        storeMs: number;
        openMs: number;
        cpuMs: number;
        rss: number;
      };
      const disk = `${mb(du(join(dir, legacyModule ? 'store' : 'events')))} MB | ${mb(du(join(dir, 'bus')))} MB`;
      print(
        `| ${events.toLocaleString('en')} | ${disk} | ${fillS.toFixed(0)} | ${opened.storeMs.toFixed(0)} | ${opened.openMs.toFixed(0)} | ${opened.cpuMs.toFixed(0)} | ${mb(opened.rss)} |`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (args.has('write-readme')) {
    const intro = `Measured by \`npm run bench:log\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}; RSS of a process that opened only the store and the bus):`;
    await updateReadme('bench:log', [intro, '', ...lines].join('\n'));
  }
}

await main();
