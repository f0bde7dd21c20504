import { Gauge, Histogram } from 'prom-client';
import type { MonitorDeps } from '../../commands/monitors.commands.js';
import type { EventStore, Position } from '../../domain/ports/event-store.port.js';
import type { ReadStore } from '../../domain/ports/read-store.port.js';
import { monitorReevaluationProcessor, type ReevaluationRecord } from '../../processors/monitor-reevaluation.processor.js';
import { createMonitorRenewals, type MonitorRenewals } from '../../processors/monitor-renewal.js';
import type { Processor } from '../../processors/processor.js';
import { monitorRepository } from '../../projections/monitors.projection.js';
import type { MonitorApi, MonitorStats } from '../../read-api/services.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';

const LAG_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** Renewal sweeps: a new period is picked up within this long of its start. */
const RENEWAL_INTERVAL_MS = 10 * 60_000;

export interface MonitorModule {
  readonly api: MonitorApi;
  readonly renewals: MonitorRenewals;
  /** The re-evaluation processor of one processor instance, issuing commands through `commands`. */
  processorFor(commands: MonitorDeps): Processor<unknown>;
}

/**
 * Everything monitors add to a service: the read model's repository, the re-evaluation processor, the
 * monthly renewals, and the operator's view (`monitors stats`, `svc_monitor_reevaluation_lag_seconds`).
 */
export function createMonitorModule(deps: {
  commands: MonitorDeps;
  store: EventStore;
  readStore: ReadStore;
  whenProjected: (position: Position | null) => Promise<void>;
  metrics?: ServiceMetrics;
  onError?: (error: unknown) => void;
}): MonitorModule {
  const monitors = monitorRepository(deps.readStore);
  let last: ReevaluationRecord | null = null;
  const lagSeconds = (record: ReevaluationRecord) => Math.max(0, Date.parse(record.finishedAt) - Date.parse(record.committedAt)) / 1000;
  const histogram = deps.metrics
    ? new Histogram({
        name: 'svc_monitor_reevaluation_lag_seconds',
        help: 'Time from an intelligence change (import, sync, curation) being committed to its monitors being re-evaluated and their changes appended',
        buckets: LAG_BUCKETS,
        registers: [deps.metrics.registry],
      })
    : null;
  if (deps.metrics) {
    const gauge = new Gauge({
      name: 'svc_monitor_reevaluation_last_lag_seconds',
      help: 'Lag of the last intelligence change re-evaluated by this process (0 before the first)',
      registers: [deps.metrics.registry],
    });
    deps.metrics.onScrape('monitor_lag', async () => {
      gauge.set(last ? lagSeconds(last) : 0);
    });
  }
  const onReevaluated = (record: ReevaluationRecord) => {
    last = record;
    histogram?.observe(lagSeconds(record));
  };
  const stats = async (): Promise<MonitorStats> => {
    const [active, paused] = await Promise.all([monitors.count('active'), monitors.count('paused')]);
    return {
      monitors: { total: active + paused, active, paused },
      last_reevaluation: last && {
        change: last.changeKey,
        committed_at: last.committedAt,
        finished_at: last.finishedAt,
        addresses_touched: last.addresses,
        monitors_reevaluated: last.monitors,
        verdicts_changed: last.changed,
      },
      lag_seconds: last ? lagSeconds(last) : null,
    };
  };
  return {
    api: { repository: monitors, stats },
    renewals: createMonitorRenewals({
      commands: deps.commands,
      monitors,
      intervalMs: RENEWAL_INTERVAL_MS,
      ...(deps.onError ? { onError: deps.onError } : {}),
    }),
    processorFor: (commands) =>
      monitorReevaluationProcessor({ commands, store: deps.store, monitors, whenProjected: deps.whenProjected, onReevaluated }),
  };
}
