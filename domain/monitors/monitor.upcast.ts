import { sourceVersionOfRow, type SourceRowV1 } from '../coverage/data-versions.v1.js';
import { changeReasonOfV1, type ChangeReasonV1 } from '../intel/change-reason.upcast.js';
import type { MonitorDataVersions, MonitorVerdict } from './monitor-verdict.js';

/**
 * MonitorCreated and MonitorVerdictChanged version 1 → 2. Version 1 (written until monitor verdicts were
 * domain facts) recorded the verdicts and data versions in the API's words (`risk_level`, `sdn_match`,
 * `data_versions.sources[].content_hash`); version 2 records the domain facts (monitor-verdict.ts). The
 * reading is exact, field for field, so an old monitor is served the bytes it was served before and its
 * changes' statements are the ones their receipts signed (test/e2e/stored-monitors.e2e.test.ts holds it
 * to that, on events the code before this wrote). Sources recorded before `imported_at` was kept stay
 * without it.
 *
 * The version 1 shape is described here, and only here: the historical record, not a shape anyone builds.
 * Stored states and read-model rows written then hold it too (an Idempotency-Key's stored monitor state,
 * a monitors document folded before this): they are read through the same functions.
 */
export interface MonitorVerdictV1 {
  risk_level: MonitorVerdict['riskLevel'];
  risk_score: number | null;
  risk_categories: string[];
  sdn_match: {
    list: 'US' | 'UK' | 'EU';
    entity: string | null;
    program: string | null;
    list_entry_id: string | null;
    list_date: string | null;
    source: string;
  } | null;
  label: string | null;
}
export interface MonitorDataVersionsV1 {
  taxonomy: string;
  snapshot: string | null;
  sources: SourceRowV1[];
}

export function monitorVerdictOfV1(v1: MonitorVerdictV1): MonitorVerdict {
  const sdn = v1.sdn_match;
  return {
    riskLevel: v1.risk_level,
    riskScore: v1.risk_score,
    riskCategories: v1.risk_categories,
    sanctionsMatch:
      sdn === null
        ? null
        : {
            list: sdn.list,
            entity: sdn.entity,
            program: sdn.program,
            listEntryId: sdn.list_entry_id,
            listDate: sdn.list_date,
            source: sdn.source,
          },
    label: v1.label,
  };
}

export const monitorDataVersionsOfV1 = (v1: MonitorDataVersionsV1): MonitorDataVersions => ({
  taxonomy: v1.taxonomy,
  snapshot: v1.snapshot,
  sources: v1.sources.map(sourceVersionOfRow),
});

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/** A verdict as stored by either version: version 1's words read as the domain verdict, anything else as it is. */
export const monitorVerdictAsStored = (value: unknown): unknown =>
  isObject(value) && 'risk_level' in value ? monitorVerdictOfV1(value as unknown as MonitorVerdictV1) : value;

/** Data versions as stored by either version: version 1's rows (`content_hash`) read as the domain's, anything else as it is. */
export function monitorDataVersionsAsStored(value: unknown): unknown {
  if (!isObject(value) || !Array.isArray(value.sources)) return value;
  const [first] = value.sources as unknown[];
  return isObject(first) && 'content_hash' in first ? monitorDataVersionsOfV1(value as unknown as MonitorDataVersionsV1) : value;
}

/** The registry's upcaster of MonitorCreated from version 1 (pure: the stored data in, version 2's data out). */
export function monitorCreatedV1toV2(data: unknown): unknown {
  const { verdict, dataVersions, ...rest } = data as { verdict: MonitorVerdictV1; dataVersions: MonitorDataVersionsV1 };
  return { ...rest, verdict: monitorVerdictOfV1(verdict), dataVersions: monitorDataVersionsOfV1(dataVersions) };
}

/** The registry's upcaster of MonitorVerdictChanged from version 1. */
export function monitorVerdictChangedV1toV2(data: unknown): unknown {
  const { previous, current, dataVersions, ...rest } = data as {
    previous: MonitorVerdictV1;
    current: MonitorVerdictV1;
    dataVersions: MonitorDataVersionsV1;
  };
  return {
    ...rest,
    previous: monitorVerdictOfV1(previous),
    current: monitorVerdictOfV1(current),
    dataVersions: monitorDataVersionsOfV1(dataVersions),
  };
}

/**
 * The registry's upcaster of MonitorVerdictChanged from version 2, which kept the change reasons in the
 * webhook's words (`changed_at`); version 3 keeps the domain fact (domain/intel/change-reason.ts).
 */
export function monitorVerdictChangedV2toV3(data: unknown): unknown {
  const { reasons, ...rest } = data as { reasons: ChangeReasonV1[] };
  return { ...rest, reasons: reasons.map(changeReasonOfV1) };
}
