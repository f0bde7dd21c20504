import { startBacktest, type BacktestReport } from '../../domain/policies/backtest.js';
import type { Policy } from '../../domain/kyt/policy.types.js';
import type { Clock } from '../../domain/ports/clock.port.js';
import type { Ids } from '../../domain/ports/ids.port.js';
import type { RecordedChecks } from '../../domain/ports/recorded-checks.port.js';
import { fail } from '../../domain/shared/errors.js';

/**
 * Backtests as jobs: one runs in the background over the subgroup's recorded checks (a fold over pages of
 * the read model, its memory the fold's counters), reports its progress and keeps its report for the
 * result URL. Jobs live in the process that started them and are recomputable: at most MAX_KEPT are
 * kept (the oldest finished one is forgotten first) and MAX_RUNNING run at once (more is `overloaded`).
 */
export const MAX_KEPT = 100;
export const MAX_RUNNING = 2;

export interface BacktestRequest {
  readonly subgroupId: string;
  readonly policyId: string;
  readonly candidate: Policy;
  readonly baseline: { readonly policyId: string; readonly policy: Policy };
  readonly from: string;
  readonly to: string;
}

export interface BacktestJob {
  readonly id: string;
  readonly request: BacktestRequest;
  status: 'running' | 'completed' | 'failed';
  checksRead: number;
  /** Checks completed since `from` when the job started: an upper bound of what it reads. */
  checksEstimated: number;
  report: BacktestReport | null;
  error: string | null;
  readonly startedAt: string;
  finishedAt: string | null;
  readonly done: Promise<void>;
}

export function backtestJobs(deps: { checks: RecordedChecks; ids: Ids; clock: Clock }) {
  const jobs = new Map<string, BacktestJob>();
  let running = 0;

  async function run(job: BacktestJob): Promise<void> {
    const { subgroupId, candidate, baseline, from, to } = job.request;
    try {
      job.checksEstimated = await deps.checks.countSince(subgroupId, from);
      const fold = startBacktest(candidate, baseline.policy);
      for await (const check of deps.checks.walk(subgroupId, { from, to })) {
        fold.add(check, check.raised.length > 0 ? await deps.checks.outcomesOf(check.checkId) : []);
        job.checksRead += 1;
      }
      job.report = fold.report();
      job.status = 'completed';
    } catch (error) {
      job.status = 'failed';
      job.error = error instanceof Error ? error.message : 'the backtest failed';
    } finally {
      job.finishedAt = deps.clock.now().toISOString();
      running -= 1;
    }
  }

  function forgetOldest(): void {
    if (jobs.size < MAX_KEPT) return;
    for (const [id, job] of jobs) {
      if (job.status !== 'running') {
        jobs.delete(id);
        return;
      }
    }
  }

  return {
    start(request: BacktestRequest): BacktestJob {
      if (running >= MAX_RUNNING) throw fail('overloaded', `at most ${MAX_RUNNING} backtests run at once: retry when one finishes`);
      forgetOldest();
      running += 1;
      let resolve: () => void = () => {};
      const done = new Promise<void>((r) => (resolve = r));
      const job: BacktestJob = {
        id: deps.ids.newId(),
        request,
        status: 'running',
        checksRead: 0,
        checksEstimated: 0,
        report: null,
        error: null,
        startedAt: deps.clock.now().toISOString(),
        finishedAt: null,
        done,
      };
      jobs.set(job.id, job);
      void run(job).then(resolve);
      return job;
    },
    get: (id: string): BacktestJob | null => jobs.get(id) ?? null,
  };
}
export type BacktestJobs = ReturnType<typeof backtestJobs>;
