import { reevaluateTransferCheck } from '../commands/kyt/reevaluate-transfer-check.js';
import type { TransferCheckDeps } from '../commands/kyt/transfer-check-deps.js';
import type { EventStore, Position } from '../domain/ports/event-store.port.js';
import { asConsequenceOf } from './event-scope.js';
import { positionOf } from './event-position.js';
import { INTEL_CHANGE_EVENTS, intelChangeOf } from './monitor-intel-changes.js';
import type { BusEvent, Processor } from './processor.js';
import { topicOfFamily } from './topics.js';

/**
 * Retroactive exposure: every intelligence change (a completed import or sync, a curated entry added or
 * retracted) re-evaluates the transfer checks of the last `days` days whose senders or hops include an
 * address it touched, found through the check-address index (its cost follows the touched addresses,
 * as monitors do). A check the subgroup's active policy now alerts on gains a retroactive case and a
 * `tx.policy.alert.triggered` with `retroactive: true` (reevaluate-transfer-check.ts). It waits until
 * the intelligence index includes the change. Idempotent by (change, check).
 */

/** Checks re-evaluated at once: bounded, so one huge change cannot flood the executor. */
const CONCURRENCY = 8;

export interface RetroactiveRecord {
  readonly changeKey: string;
  readonly committedAt: string;
  readonly finishedAt: string;
  readonly addresses: number;
  readonly checks: number;
  readonly alerts: number;
}

export function retroactiveExposureProcessor(deps: {
  commands: TransferCheckDeps;
  store: EventStore;
  /** The checks completed at or after `since` that any of these addresses took part in. */
  checksOf: (addresses: ReadonlySet<string>, since: string) => Promise<ReadonlySet<string>>;
  /** Whether any check was completed at or after `since`. */
  anyCheckSince: (since: string) => Promise<boolean>;
  days: number;
  whenProjected: (position: Position | null) => Promise<void>;
  onReevaluated?: (record: RetroactiveRecord) => void;
}): Processor<unknown> {
  async function reevaluate(event: BusEvent): Promise<void> {
    await deps.whenProjected(positionOf(event));
    const since = new Date(deps.commands.clock.now().getTime() - deps.days * 86_400_000).toISOString();
    // No check in the window: the change is not even diffed (a first import of large lists costs nothing here).
    if (!(await deps.anyCheckSince(since))) return;
    const change = await intelChangeOf(deps.store, event);
    if (change === null || change.addresses.size === 0) return;
    const checkIds = await deps.checksOf(change.addresses, since);
    let alerts = 0;
    const ids = [...checkIds];
    for (let start = 0; start < ids.length; start += CONCURRENCY) {
      const raised = await Promise.all(
        ids
          .slice(start, start + CONCURRENCY)
          .map((checkId) => reevaluateTransferCheck(deps.commands, { checkId, changeKey: change.changeKey, reasons: change.reasons })),
      );
      alerts += raised.reduce((sum, n) => sum + n, 0);
    }
    deps.onReevaluated?.({
      changeKey: change.changeKey,
      committedAt: String(event.metadata.occurredAt ?? deps.commands.clock.now().toISOString()),
      finishedAt: deps.commands.clock.now().toISOString(),
      addresses: change.addresses.size,
      checks: ids.length,
      alerts,
    });
  }

  return {
    name: 'retroactive-exposure',
    topics: ['dataset', 'curation'].map(topicOfFamily),
    async handle(batch) {
      if (deps.days <= 0) return;
      for (const event of batch) if (INTEL_CHANGE_EVENTS.has(event.type)) await asConsequenceOf(event, () => reevaluate(event));
    },
  };
}
