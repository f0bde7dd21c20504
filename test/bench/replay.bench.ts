import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ledgerStream } from '../../domain/ledger/ledger.events.js';
import type { EventStore, RecordedEvent } from '../../domain/ports/event-store.port.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import type { IntelHistory, VerdictEventRef } from '../../domain/ports/intel-history.port.js';
import { createServices } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { intelHistory } from '../../projections/intel-as-of.js';
import type { IntelIndexProjection } from '../../projections/intel-index.js';

/**
 * bench:replay: the as-of intelligence of a replay (docs/ARCHITECTURE.md#verdict-replay) on a data directory
 * filled by history-fill.ts (DATA_DIR), before (one filtered read of the log from the start) and after (each
 * source's import in force, rows from the live index). Prints ms and events read per as-of fold, and checks
 * both give the same lookup, data versions and snapshot.
 */
const dataDir = process.env.DATA_DIR!;
const samples = Number(process.env.SAMPLES ?? 5);
const services = await createServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
await services.start();
await services.whenCaughtUp();

/** The store, counting every event it hands out (stream reads and $all deliveries). */
function counting(store: EventStore, reads: { events: number }): EventStore {
  return {
    ...store,
    read: async function* (stream, options) {
      for await (const event of store.read(stream, options)) yield (reads.events++, event);
    },
    subscribeToAll: async function* (options) {
      for await (const delivery of store.subscribeToAll(options)) yield (reads.events++, delivery);
    },
  } as EventStore;
}

const state = JSON.parse(await readFile(join(dataDir, 'bench-history.json'), 'utf8')) as { accounts: { userId: string }[] };
const charges: { ref: VerdictEventRef; address: string }[] = [];
for (const { userId } of state.accounts.slice(-samples)) {
  for await (const event of services.store.read(ledgerStream(userId), { direction: 'backwards' })) {
    if (event.type !== 'Charged') continue;
    const chargeId = (event.data as { chargeId: string }).chargeId;
    const address = JSON.stringify(event.data).match(/0x[0-9a-fA-F]{40}/)?.[0] ?? '0x' + '0'.repeat(40);
    const isVerdict = (e: RecordedEvent) => e.type === 'Charged' && (e.data as { chargeId?: unknown }).chargeId === chargeId;
    charges.push({ ref: { streamPrefix: ledgerStream(userId), isVerdict }, address });
    break;
  }
}

/** The address the README screens (sanctioned): compared too, so the comparison covers claims, not only versions. */
const LISTED = '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';
const view = (index: IntelIndex | null, address: string) =>
  JSON.stringify(
    index && { lookup: [address, LISTED].map((a) => index.lookup(a, 'ETH')), datasets: index.datasets(), snapshot: index.snapshot() },
  );

async function timed(make: (store: EventStore) => IntelHistory, label: string): Promise<string[]> {
  const views: string[] = [];
  const figures: string[] = [];
  for (const { ref, address } of charges) {
    const reads = { events: 0 };
    const started = performance.now();
    const index = await make(counting(services.store, reads)).asOf({
      addresses: [address, LISTED],
      verdict: ref,
      signal: new AbortController().signal,
    });
    figures.push(`${(performance.now() - started).toFixed(0)} ms / ${reads.events} events`);
    views.push(view(index, address));
  }
  process.stdout.write(`${label}: ${figures.join(', ')}\n`);
  return views;
}

const head = await services.store.headPosition();
const sources = services.intel.datasets().map((d) => `${d.source}(${d.claimCount})`);
process.stdout.write(
  `log head ${head?.commit}, ${sources.length} sources: ${sources.join(' ')}; load ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
const before = await timed(
  (store) => intelHistory(store, { requiredSanctions: services.config.SVC_REQUIRED_SANCTIONS }),
  'before (from the start)',
);
const live = services.intel as unknown as IntelIndexProjection;
const after = await timed(
  (store) => intelHistory(store, { requiredSanctions: services.config.SVC_REQUIRED_SANCTIONS, live }),
  'after (in force + live)',
);
process.stdout.write(`identical: ${before.every((v, i) => v === after[i])}\n`);
await services.close();
