import { changeReasonOfV1, type ChangeReasonV1 } from '../intel/change-reason.upcast.js';

/**
 * The registry's upcaster of AlertCaseOpened from version 1, whose retroactive change (when an intelligence
 * change raised the alert) kept its reasons in the webhook's words (`changed_at`); version 2 keeps the domain
 * fact (domain/intel/change-reason.ts). A case opened by a check itself has no retroactive change: as it was.
 */
export function alertCaseOpenedV1toV2(data: unknown): unknown {
  const { retroactive, ...rest } = data as { retroactive?: { changeKey: string; reasons: ChangeReasonV1[] } };
  if (retroactive === undefined) return data;
  return { ...rest, retroactive: { ...retroactive, reasons: retroactive.reasons.map(changeReasonOfV1) } };
}
