import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorStream } from '../../domain/monitors/monitor.events.js';
import { eventRegistry } from '../../domain/events/registry.js';
import type { EventData } from '../../domain/ports/event-store.port.js';
import { createServices } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { TAXONOMY } from '../../domain/intel/taxonomy.js';
import { updateReadme } from '../support/readme-figures.js';
import { importAndTime, scamClaim, watchChanges } from './flagging-imports.js';
import { retroactivePhase } from './retroactive-phase.js';

/**
 * bench:monitoring — continuous monitoring at scale on the embedded default: BENCH_MONITORS (1,000,000)
 * monitors, then BENCH_ROUNDS imports of a synthetic source (clearly named `bench_feed_*`, made-up
 * addresses), each changing 50 monitored addresses and 10,000 unmonitored ones. Measures, per import, the
 * time from the import's commit (its append resolved) to the last of its 50 `MonitorVerdictChanged`
 * events appended (seen on a live `$all` subscription), and the heap the monitors take (the read model's
 * documents and indexes, and the event store's stream index: the whole service's growth, after a GC).
 * The monitors are appended as the very MonitorCreated events the create command writes, without their
 * charges (a million ledger appends would measure the ledger, not monitoring).
 * Then the retroactive path (retroactive-phase.ts) on the same service: BENCH_PAST_CHECKS (1,000,000) past
 * transfer checks, and BENCH_ROUNDS imports each flagging 50 of their senders; commit to the last
 * retroactive alert (TransferCheckReevaluated) appended. BENCH_PAST_CHECKS=0 skips it.
 * Prints the figures; `--write-readme` also writes the monitors' into docs/benchmarks.md between the bench:monitoring markers.
 */
const MONITORS = Number(process.env.BENCH_MONITORS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const PAST_CHECKS = Number(process.env.BENCH_PAST_CHECKS ?? 1_000_000);
const CHANGED_MONITORED = 50;
const CHANGED_UNMONITORED = 10_000;
const USERS = 1000;
const APPEND_CONCURRENCY = 2000;
const AT = new Date().toISOString();

const monitoredAddress = (i: number) => `0x1${i.toString(16).padStart(39, '0')}`;
const unmonitoredAddress = (round: number, i: number) => `0x2${round.toString(16).padStart(9, '0')}${i.toString(16).padStart(30, '0')}`;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'bench-monitoring-'));
  const services = await createServices(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SVC_SYNC_ON_START: '0', MODE: 'embedded' }));
  await services.start();
  try {
    const heapBefore = heapMb();
    const populateStarted = performance.now();
    const meta = { correlationId: 'bench-monitoring', occurredAt: AT, schemaVersion: eventRegistry.versionOf('MonitorCreated') };
    for (let from = 0; from < MONITORS; from += APPEND_CONCURRENCY) {
      const appends: Promise<unknown>[] = [];
      for (let i = from; i < Math.min(MONITORS, from + APPEND_CONCURRENCY); i++) {
        const userId = `bench-user-${i % USERS}`;
        const address = monitoredAddress(i);
        const monitorId = services.commands.ids.eventId(`monitor:${userId}:ETH:${address}`, 0);
        const created: EventData = {
          id: randomUUID(),
          type: 'MonitorCreated',
          data: {
            monitorId,
            userId,
            keyId: null,
            address,
            network: 'ETH',
            reference: null,
            verdict: { riskLevel: 'none', riskScore: null, riskCategories: [], sanctionsMatch: null, label: null },
            dataVersions: { taxonomy: TAXONOMY.version, snapshot: null, sources: [] },
            paidPeriod: `${AT.slice(0, 8)}01T00:00:00.000Z`,
            createdAt: AT,
          },
          metadata: meta,
        };
        appends.push(services.store.append(monitorStream(monitorId), [created], { expected: 'no_stream' }));
      }
      await Promise.all(appends);
      if ((from + APPEND_CONCURRENCY) % 100_000 === 0) process.stderr.write(`${from + APPEND_CONCURRENCY} monitors appended\n`);
    }
    process.stderr.write('projecting and relaying them\n');
    await services.whenCaughtUp();
    const populateSeconds = (performance.now() - populateStarted) / 1000;
    const heapAfter = heapMb();
    const projected = await services.monitors.api.stats();
    console.log(
      `${projected.monitors.active} monitors in ${populateSeconds.toFixed(1)} s (appended, projected, relayed); heap +${(heapAfter - heapBefore).toFixed(0)} MB`,
    );

    // Every MonitorVerdictChanged as it is appended, by change key.
    const abort = new AbortController();
    const { seen, done: watching } = watchChanges(services, { prefix: 'monitor-', type: 'MonitorVerdictChanged' }, abort.signal);

    const latencies: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const source = `bench_feed_${round}`;
      const claims = [
        ...Array.from({ length: CHANGED_MONITORED }, (_, i) =>
          scamClaim(monitoredAddress((round * 7919 + i * 104_729) % MONITORS), source, AT),
        ),
        ...Array.from({ length: CHANGED_UNMONITORED }, (_, i) => scamClaim(unmonitoredAddress(round, i), source, AT)),
      ];
      latencies.push(await importAndTime(services, seen, { source, at: AT, claims, expected: CHANGED_MONITORED }));
    }
    abort.abort();
    await watching.catch(() => undefined);

    const sorted = [...latencies].sort((a, b) => a - b);
    const stats = await services.monitors.api.stats();
    const figures = {
      monitors: MONITORS,
      imports: ROUNDS,
      changed_per_import: { monitored: CHANGED_MONITORED, unmonitored: CHANGED_UNMONITORED },
      commit_to_last_risk_changed_ms: {
        p50: Math.round(percentile(sorted, 50)),
        p99: Math.round(percentile(sorted, 99)),
        max: Math.round(sorted.at(-1)!),
      },
      heap_mb_for_monitors: Math.round(heapAfter - heapBefore),
      heap_bytes_per_monitor: Math.round(((heapAfter - heapBefore) * 2 ** 20) / MONITORS),
      populate_seconds: Math.round(populateSeconds),
      last_reevaluation: stats.last_reevaluation,
    };
    console.log(JSON.stringify(figures, null, 2));
    if (PAST_CHECKS > 0) {
      const retroactive = await retroactivePhase(services, PAST_CHECKS, ROUNDS);
      const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
      console.log(JSON.stringify({ retroactive, load_average: `${one} / ${five} / ${fifteen}` }, null, 2));
    }
    if (process.argv.includes('--write-readme')) {
      await updateReadme(
        'bench:monitoring',
        [
          '| monitors | imports | changed per import (monitored / unmonitored) | commit → last risk_changed appended p50 / p99 / max | heap for the monitors |',
          '|---|---|---|---|---|',
          `| ${MONITORS.toLocaleString('en')} | ${ROUNDS} | ${CHANGED_MONITORED} / ${CHANGED_UNMONITORED.toLocaleString('en')} | ${figures.commit_to_last_risk_changed_ms.p50} / ${figures.commit_to_last_risk_changed_ms.p99} / ${figures.commit_to_last_risk_changed_ms.max} ms | ${figures.heap_mb_for_monitors} MB (${figures.heap_bytes_per_monitor} B per monitor) |`,
        ].join('\n'),
      );
    }
  } finally {
    await services.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
