import { z } from 'zod';
import { dataVersionsSchema, sourceVersionRow, sourceVersionRowSchema } from '../coverage/data-versions.body.js';
import { SANCTIONS_JURISDICTIONS } from '../intel/intel.types.js';
import type { ScreenVerdict } from '../intel/screen-verdict.schema.js';
import { RISK_LEVELS } from '../shared/verdict-vocabulary.js';

/**
 * What a monitor watches of an address's light-screen verdict. A change of risk level, sanctions match,
 * risk categories or label is a change the customer is told about; the score alone moving is not (it
 * follows every confidence tweak of every source and would drown the signal).
 */
export const monitorVerdictSchema = z.object({
  risk_level: z.enum(RISK_LEVELS).nullable(),
  risk_score: z.number().int().min(0).max(100).nullable(),
  risk_categories: z.array(z.string()),
  sdn_match: z
    .object({
      list: z.enum(SANCTIONS_JURISDICTIONS),
      entity: z.string().nullable(),
      program: z.string().nullable(),
      list_entry_id: z.string().nullable(),
      list_date: z.string().nullable(),
      source: z.string(),
    })
    .nullable(),
  label: z.string().nullable(),
});
export type MonitorVerdict = z.infer<typeof monitorVerdictSchema>;

/** As recorded with the monitor's verdicts: versions recorded before `imported_at` existed lack it. */
export const monitorDataVersionsSchema = dataVersionsSchema.extend({
  sources: z.array(sourceVersionRowSchema.extend({ imported_at: z.string().optional() })),
});
export type MonitorDataVersions = z.infer<typeof monitorDataVersionsSchema>;

/** Why a monitor was re-evaluated: the source (or list) whose data changed, with its version or date. */
export const changeReasonSchema = z.object({
  source: z.string().min(1),
  change: z.enum(['dataset_imported', 'curator_entry_added', 'curator_entry_retracted', 'monitor_resumed']),
  version: z.string().nullable(),
  changed_at: z.string(),
});
export type ChangeReason = z.infer<typeof changeReasonSchema>;

/** A source row as monitor verdicts record it (`imported_at` absent where the screen's verdict lacked it). */
const sourceVersionRowOf = (s: ScreenVerdict['coverage']['dataVersions']['sources'][number]): MonitorDataVersions['sources'][number] =>
  s.importedAt === undefined
    ? { source: s.source, version: s.version, content_hash: s.contentHash }
    : sourceVersionRow({ ...s, importedAt: s.importedAt });

export function monitorVerdictOf(screen: ScreenVerdict): { verdict: MonitorVerdict; dataVersions: MonitorDataVersions } {
  const { verdict, coverage } = screen;
  const sdn = verdict.sanctionsMatch;
  return {
    verdict: {
      risk_level: verdict.addressLevel,
      risk_score: verdict.riskScore,
      risk_categories: [...verdict.riskCategories].sort(),
      sdn_match:
        sdn === null
          ? null
          : {
              list: sdn.list,
              entity: sdn.entity,
              program: sdn.program,
              list_entry_id: sdn.listEntryId,
              list_date: sdn.listDate,
              source: sdn.source,
            },
      label: verdict.label,
    },
    dataVersions: { ...coverage.dataVersions, sources: coverage.dataVersions.sources.map(sourceVersionRowOf) },
  };
}

const sdnKey = (sdn: MonitorVerdict['sdn_match']): string =>
  sdn === null ? '' : JSON.stringify([sdn.list, sdn.entity, sdn.program, sdn.list_entry_id, sdn.list_date, sdn.source]);

/** True when the customer must hear about it: level, sanctions match, categories or label differ. */
export function verdictChanged(previous: MonitorVerdict, current: MonitorVerdict): boolean {
  return (
    previous.risk_level !== current.risk_level ||
    previous.label !== current.label ||
    sdnKey(previous.sdn_match) !== sdnKey(current.sdn_match) ||
    [...previous.risk_categories].sort().join('\n') !== [...current.risk_categories].sort().join('\n')
  );
}
