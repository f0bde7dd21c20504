import type { ChangeReason } from './change-reason.js';

/**
 * A change reason as events recorded it before reasons were domain facts (MonitorVerdictChanged version 2,
 * TransferCheckReevaluated and AlertCaseOpened version 1): the webhook's words, `changed_at`. Described
 * here, and only here: the historical record, not a shape anyone builds. Read-model documents folded
 * then hold it too (a monitor's history, an alert case's retroactive change): read through
 * changeReasonsAsStored until they are refolded.
 */
export interface ChangeReasonV1 {
  source: string;
  change: ChangeReason['change'];
  version: string | null;
  changed_at: string;
}

export const changeReasonOfV1 = ({ source, change, version, changed_at }: ChangeReasonV1): ChangeReason => ({
  source,
  change,
  version,
  changedAt: changed_at,
});

const isV1 = (reason: ChangeReason | ChangeReasonV1): reason is ChangeReasonV1 => 'changed_at' in reason;

/** Reasons as stored by either shape: the old words read as the fact, the fact as it is. */
export const changeReasonsAsStored = (reasons: readonly (ChangeReason | ChangeReasonV1)[]): ChangeReason[] =>
  reasons.map((reason) => (isV1(reason) ? changeReasonOfV1(reason) : reason));
