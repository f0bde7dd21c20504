import type { BacktestJobs } from '../../commands/policies/backtest-jobs.js';
import type { PolicyBookEvent } from '../../domain/policies/policy-book.events.js';

/** What /v2/policies uses besides the commands: a policy's history, and the backtests. */
export interface PolicyAppServices {
  history(subgroupId: string, policyId: string): Promise<readonly PolicyBookEvent[]>;
  readonly backtests: BacktestJobs;
}
