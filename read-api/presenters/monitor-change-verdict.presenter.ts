import type { MonitorChange } from '../../commands/replay/monitor-change.js';
import { sanctionsCoverageBody } from '../../domain/webhooks/sanctions-coverage.words.js';
import { changeReasonWords } from '../../domain/webhooks/change-reason-words.js';
import { monitorDataVersionsBody, monitorVerdictBody } from './monitor-verdict.presenter.js';
import type { Presented } from './presented.js';
import type { StoredVerdictBody } from './stored-verdict.presenter.js';

export const NO_MONITOR_CHANGE_RECEIPT = 'This monitor change was recorded before the service signed monitor changes: it has no receipt.';

/**
 * GET /v2/verdicts/{monitor_id}:{change}: a monitor's change read back, in the shape GET /v2/monitors/{id}
 * lists its history, with the data versions it was made from and the receipt its webhook carried.
 */
export function presentMonitorChangeVerdict(found: MonitorChange): Presented<StoredVerdictBody> {
  const { change } = found;
  return {
    status: 200,
    body: {
      verdict_id: found.verdictId,
      kind: 'monitor_change',
      network: found.network,
      subject: found.address,
      created_at: change.at,
      verdict: {
        monitor_id: found.monitorId,
        at: change.at,
        previous: monitorVerdictBody(change.previous),
        current: monitorVerdictBody(change.current),
        reasons: change.reasons.map(changeReasonWords),
        sanctions: change.sanctions ? sanctionsCoverageBody(change.sanctions) : null,
        data_versions: monitorDataVersionsBody(change.dataVersions),
      },
      receipt: change.receipt ?? null,
      receipt_note: change.receipt ? null : NO_MONITOR_CHANGE_RECEIPT,
    },
  };
}
