import { changeReasonOfV1, type ChangeReasonV1 } from '../intel/change-reason.upcast.js';

/**
 * The registry's upcaster of TransferCheckReevaluated from version 1, which kept the intelligence change's
 * reasons in the webhook's words (`changed_at`); version 2 keeps the domain fact (domain/intel/change-reason.ts).
 */
export function transferCheckReevaluatedV1toV2(data: unknown): unknown {
  const { reasons, ...rest } = data as { reasons: ChangeReasonV1[] };
  return { ...rest, reasons: reasons.map(changeReasonOfV1) };
}
