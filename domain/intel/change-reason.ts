import { z } from 'zod';

/**
 * Why a verdict was looked at again after it was made: the source (or list) whose data changed, what
 * changed, its version and when. A domain fact of the intelligence, not of monitors only: monitor changes
 * (MonitorVerdictChanged), retroactive exposure (TransferCheckReevaluated) and the alert cases it opens
 * (AlertCaseOpened) record it. The webhook and API words are domain/webhooks/change-reason-words.ts's.
 */
export const changeReasonSchema = z.object({
  source: z.string().min(1),
  change: z.enum(['dataset_imported', 'curator_entry_added', 'curator_entry_retracted', 'monitor_resumed']),
  version: z.string().nullable(),
  changedAt: z.string(),
});
export type ChangeReason = z.infer<typeof changeReasonSchema>;
