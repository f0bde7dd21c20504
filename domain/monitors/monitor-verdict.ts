import { z } from 'zod';
import { dataVersionsSchema, sourceVersionRowSchema } from '../coverage/data-versions.body.js';
import { sdnMatchSchema, type ScreenVerdict } from '../intel/screen-verdict.schema.js';
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
  sdn_match: sdnMatchSchema.omit({ asset: true }).nullable(),
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

export function monitorVerdictOf(screen: ScreenVerdict): { verdict: MonitorVerdict; dataVersions: MonitorDataVersions } {
  const { verdict, coverage } = screen;
  const sdn = verdict.sdn_match;
  return {
    verdict: {
      risk_level: verdict.risk_level,
      risk_score: verdict.risk_score,
      risk_categories: [...verdict.risk_categories].sort(),
      sdn_match:
        sdn === null
          ? null
          : {
              list: sdn.list,
              entity: sdn.entity,
              program: sdn.program,
              list_entry_id: sdn.list_entry_id,
              list_date: sdn.list_date,
              source: sdn.source,
            },
      label: verdict.label,
    },
    dataVersions: coverage.data_versions,
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
