import type { CaseOutcome, RecordedCheck } from '../policies/backtest.js';

/** A subgroup's recorded transfer checks as backtests read them (projections/policy-inputs.projection.ts). */
export interface RecordedChecks {
  /** The checks completed in [from, to), oldest first, read a bounded page at a time. */
  walk(subgroupId: string, range: { from: string; to: string }): AsyncIterable<RecordedCheck>;
  /** How many checks completed at or after `from` (a progress estimate). */
  countSince(subgroupId: string, from: string): Promise<number>;
  /** How analysts closed the cases of a check's alerts (open cases are left out). */
  outcomesOf(checkId: string): Promise<readonly CaseOutcome[]>;
}
