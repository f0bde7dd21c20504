import { reevaluateMonitor, type MonitorDeps } from '../commands/monitors.commands.js';
import type { EventStore, Position } from '../domain/ports/event-store.port.js';
import { HEADER } from '../domain/ports/message-bus.port.js';
import type { Network } from '../domain/shared/network.js';
import type { MonitorFinder } from '../domain/ports/monitors.port.js';
import { asConsequenceOf } from './event-scope.js';
import { INTEL_CHANGE_EVENTS, intelChangeOf } from './monitor-intel-changes.js';
import type { BusEvent, Processor } from './processor.js';
import { topicOfFamily } from './topics.js';

/**
 * Continuous monitoring: every intelligence change (a completed dataset import or sync, a curated entry
 * added or retracted) re-screens the monitors of exactly the addresses it touched, found through the
 * monitors' watch_key index. It waits until the intelligence index and the monitors read model include
 * the change, so the verdict it computes is the new one. Idempotent by (change, monitor): after a crash
 * the redelivered change re-appends nothing already appended (monitor.decider.ts).
 */

/** Monitors re-screened at once: bounded, so one huge change cannot flood the executor. */
const CONCURRENCY = 64;

export interface ReevaluationRecord {
  readonly changeKey: string;
  /** When the change was committed (its event's occurredAt). */
  readonly committedAt: string;
  readonly finishedAt: string;
  readonly addresses: number;
  readonly monitors: number;
  readonly changed: number;
}

export function monitorReevaluationProcessor(deps: {
  commands: MonitorDeps;
  store: EventStore;
  monitors: MonitorFinder;
  /** Resolves once the read models and the intelligence index reflect `position`. */
  whenProjected: (position: Position | null) => Promise<void>;
  onReevaluated?: (record: ReevaluationRecord) => void;
}): Processor<unknown> {
  async function reevaluate(event: BusEvent): Promise<void> {
    await deps.whenProjected(positionOf(event));
    // No monitor to re-screen: the change is not even diffed (a first import of large lists costs nothing here).
    if (!(await deps.monitors.anyActive())) return;
    const change = await intelChangeOf(deps.store, event);
    if (change === null) return;
    const monitorIds = await monitorsOf(deps.monitors, change.addresses);
    let changed = 0;
    await inBatches(monitorIds, CONCURRENCY, async (monitorId) => {
      const outcome = await reevaluateMonitor(deps.commands, { monitorId, changeKey: change.changeKey, reasons: change.reasons });
      if (outcome.changed) changed += 1;
    });
    deps.onReevaluated?.({
      changeKey: change.changeKey,
      committedAt: String(event.metadata.occurredAt ?? deps.commands.clock.now().toISOString()),
      finishedAt: deps.commands.clock.now().toISOString(),
      addresses: change.addresses.size,
      monitors: monitorIds.length,
      changed,
    });
  }

  return {
    name: 'monitor-reevaluation',
    topics: ['dataset', 'curation'].map(topicOfFamily),
    async handle(batch) {
      // In order: a later change to the same address must be judged after the earlier one.
      for (const event of batch) if (INTEL_CHANGE_EVENTS.has(event.type)) await asConsequenceOf(event, () => reevaluate(event));
    },
  };
}

/** The networks a normalized address can be watched on: 0x hex on the EVM networks, anything else on TRON. */
const networksOf = (address: string): readonly Network[] => (/^0x[0-9a-f]{40}$/.test(address) ? ['ETH', 'BSC'] : ['TRON']);

/** The active monitors of these addresses, by (network, address) through the index. */
async function monitorsOf(monitors: MonitorFinder, addresses: ReadonlySet<string>): Promise<string[]> {
  const ids: string[] = [];
  await inBatches([...addresses], 256, async (address) => {
    for (const network of networksOf(address)) {
      for (const doc of await monitors.watching(network, address)) if (doc.status === 'active') ids.push(doc.monitor_id);
    }
  });
  return ids;
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let start = 0; start < items.length; start += size) await Promise.all(items.slice(start, start + size).map(work));
}

function positionOf(event: BusEvent): Position | null {
  const commit = event.message.headers[HEADER.commit];
  const prepare = event.message.headers[HEADER.prepare];
  return commit === undefined || prepare === undefined ? null : { commit: BigInt(commit), prepare: BigInt(prepare) };
}
