import { runTransferCheck } from '../commands/kyt/run-transfer-check.js';
import type { TransferCheckDeps } from '../commands/kyt/transfer-check-deps.js';
import { eventRegistry } from '../domain/events/registry.js';
import { TRANSFER_STREAM_FAMILY } from '../domain/kyt/transfer-check.events.js';
import { asConsequenceOf } from './event-scope.js';
import type { Processor } from './processor.js';
import { topicOfFamily } from './topics.js';
import { createWorkPool } from './work-pool.js';

export interface TransferCheckRunLimits {
  /** Checks running at once in this process; a request past it waits on the bus. */
  readonly concurrency: number;
  /** Each check's own deadline: past it the check fails (502 backend_unavailable, never charged). */
  readonly timeoutMs: number;
}

/**
 * Runs the transfer check pipeline for every requested check (topic `events.transfer`). Each check runs
 * on its own in a bounded pool, with its own deadline: the batch is handed over as soon as its checks
 * have started, so one transaction whose node lookup hangs delays only its own check, never the checks
 * behind it on the same partition. Redelivery is harmless: a check that already has an outcome is
 * skipped. As a batch is committed once its checks have started, a check in flight when the process
 * stopped is run again at the next start (`resume`, from the index of running jobs).
 */
export interface TransferCheckProcessor extends Processor<unknown> {
  /** Runs these checks again (those a stopped process left running); a check with an outcome is skipped. */
  resume(checkIds: readonly string[]): Promise<void>;
}

export function transferCheckProcessor(deps: TransferCheckDeps, limits: TransferCheckRunLimits): TransferCheckProcessor {
  const pool = createWorkPool(limits.concurrency, (error) =>
    deps.log?.warn({ error: error instanceof Error ? error.message : String(error) }, 'transfer check could not record its outcome'),
  );
  return {
    name: 'transfer-check',
    topics: [topicOfFamily(TRANSFER_STREAM_FAMILY)],
    async handle(batch) {
      for (const event of batch) {
        if (event.type !== 'TransferCheckRequested') continue;
        const { checkId } = eventRegistry.dataOf('TransferCheckRequested', event);
        await pool.admit(() => asConsequenceOf(event, () => runTransferCheck(deps, checkId, { timeoutMs: limits.timeoutMs })));
      }
    },
    whenIdle: () => pool.whenIdle(),
    async resume(checkIds) {
      for (const checkId of checkIds) await pool.admit(() => runTransferCheck(deps, checkId, { timeoutMs: limits.timeoutMs }));
    },
  };
}
