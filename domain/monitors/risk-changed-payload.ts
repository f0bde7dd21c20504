import { z } from 'zod';
import { SANCTIONS_JURISDICTIONS } from '../intel/intel.types.js';
import { RISK_LEVELS } from '../shared/verdict-vocabulary.js';
import type { MonitorVerdict } from './monitor-verdict.js';

/**
 * A monitor's verdict in the words of the `service.address.risk_changed` webhook (docs/api.md,
 * "Monitors"): the payload is the integration message, recorded as sent in the WebhookEventRaised the
 * fan-out delivers verbatim, so its words are part of the contract and stay the spec's snake case
 * (docs/ARCHITECTURE.md, "Verdicts as domain facts"). GET /v2/monitors shows the verdict in the same
 * words (read-api/schemas/monitors.ts reuses this schema).
 */
export const monitorVerdictWordsSchema = z.object({
  risk_level: z.enum(RISK_LEVELS).nullable(),
  risk_score: z.number().int().min(0).max(100).nullable(),
  risk_categories: z.array(z.string()),
  sdn_match: z
    .strictObject({
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
export type MonitorVerdictWords = z.infer<typeof monitorVerdictWordsSchema>;

/** The domain verdict in the payload's words, keys in the order they were always sent. */
export function monitorVerdictWords(verdict: MonitorVerdict): MonitorVerdictWords {
  const match = verdict.sanctionsMatch;
  return {
    risk_level: verdict.riskLevel,
    risk_score: verdict.riskScore,
    risk_categories: [...verdict.riskCategories],
    sdn_match:
      match === null
        ? null
        : {
            list: match.list,
            entity: match.entity,
            program: match.program,
            list_entry_id: match.listEntryId,
            list_date: match.listDate,
            source: match.source,
          },
    label: verdict.label,
  };
}
