import type { MonitorDataVersions, MonitorVerdict } from '../../domain/monitors/monitor-verdict.js';
import { monitorVerdictWords } from '../../domain/monitors/risk-changed-payload.js';
import type { MonitorDataVersionsBody, MonitorVerdictBody } from '../schemas/monitors.js';

/**
 * A monitor's verdict and data versions as GET /v2/monitors, its history and GET /v2/verdicts show them.
 * The verdict's words are the `service.address.risk_changed` payload's (one shaping for both: a customer
 * reads the same object in the webhook and the API).
 */
export const monitorVerdictBody = (verdict: MonitorVerdict): MonitorVerdictBody => monitorVerdictWords(verdict);

/** Sources recorded before `imported_at` was kept are shown without it, as they were. */
export const monitorDataVersionsBody = (versions: MonitorDataVersions): MonitorDataVersionsBody => ({
  taxonomy: versions.taxonomy,
  snapshot: versions.snapshot,
  sources: versions.sources.map((s) => ({
    source: s.source,
    version: s.version,
    content_hash: s.contentHash,
    ...(s.importedAt === undefined ? {} : { imported_at: s.importedAt }),
  })),
});
