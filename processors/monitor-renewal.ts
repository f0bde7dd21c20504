import { renewMonitor, type MonitorDeps } from '../commands/monitors.commands.js';
import { periodStartOf } from '../domain/billing/period.js';
import type { MonitorFinder } from '../domain/ports/monitors.port.js';

/**
 * Charges each monitor's new month when a period starts (docs/api.md, "Monitors"). A sweep takes the active
 * monitors whose last paid period is earlier than the current one, and the paused ones (a refused period
 * is tried again each sweep, so a monitor resumes once funds are back), page by page through the
 * renewal_key index. The decider re-checks what is owed, so a sweep on a lagging read model, or two
 * sweeps at once, charge nothing twice (the charge id is (monitor, period)).
 */

/** How many past periods a sweep looks back (a service stopped over a month boundary catches up). */
const PERIODS_BACK = 12;
const PAGE = 500;

export interface MonitorRenewals {
  sweep(): Promise<{ renewed: number; resumed: number; paused: number }>;
  start(): void;
  stop(): Promise<void>;
}

function previousPeriods(current: string, count: number): string[] {
  const d = new Date(current);
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1 - i, 1)).toISOString());
}

export function createMonitorRenewals(deps: {
  commands: MonitorDeps;
  monitors: MonitorFinder;
  intervalMs: number;
  onError?: (error: unknown) => void;
}): MonitorRenewals {
  let timer: ReturnType<typeof setInterval> | null = null;
  let sweeping: Promise<{ renewed: number; resumed: number; paused: number }> | null = null;

  async function sweepOnce() {
    const period = periodStartOf(deps.commands.clock.now());
    const tally = { renewed: 0, resumed: 0, paused: 0, unchanged: 0 };
    const seen = new Set<string>();
    const lists: ['active' | 'paused', string][] = [
      ...previousPeriods(period, PERIODS_BACK).map((p) => ['active', p] as ['active', string]),
      ...[period, ...previousPeriods(period, PERIODS_BACK)].map((p) => ['paused', p] as ['paused', string]),
    ];
    for (const [status, paidPeriod] of lists) {
      for (;;) {
        // Renewed monitors leave the list; ones that stay (refused again, paused) are skipped by `seen`.
        const due = (await deps.monitors.due(status, paidPeriod, PAGE + seen.size))
          .filter((doc) => !seen.has(doc.monitor_id))
          .slice(0, PAGE);
        if (due.length === 0) break;
        for (const doc of due) {
          seen.add(doc.monitor_id);
          tally[await renewMonitor(deps.commands, { monitorId: doc.monitor_id, period })] += 1;
        }
      }
    }
    return { renewed: tally.renewed, resumed: tally.resumed, paused: tally.paused };
  }

  const sweep = () => {
    sweeping ??= sweepOnce().finally(() => {
      sweeping = null;
    });
    return sweeping;
  };

  return {
    sweep,
    start() {
      timer ??= setInterval(() => void sweep().catch((error) => deps.onError?.(error)), deps.intervalMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await sweeping?.catch(() => undefined);
    },
  };
}
