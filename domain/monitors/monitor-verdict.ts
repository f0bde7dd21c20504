import { z } from 'zod';
import { sourceVersionSchema } from '../coverage/data-versions.js';
import { sanctionsMatchSchema } from '../intel/screen-summary.js';
import type { ScreenVerdict } from '../intel/screen-verdict.schema.js';
import { RISK_LEVELS } from '../shared/verdict-vocabulary.js';

/**
 * What a monitor watches of an address's light-screen verdict, as a domain fact (MonitorCreated and
 * MonitorVerdictChanged record it; the API's words are read-api's and the webhook's,
 * risk-changed-payload.ts). A change of risk level, sanctions match, risk categories or label is a change
 * the customer is told about; the score alone moving is not (it follows every confidence tweak of every
 * source and would drown the signal).
 */

/** The sanctions list entry that names the address, as the screen summary keeps it, without the asset (a monitor watches the address). */
export const monitorSanctionsMatchSchema = sanctionsMatchSchema.omit({ asset: true });

export const monitorVerdictSchema = z.object({
  riskLevel: z.enum(RISK_LEVELS).nullable(),
  riskScore: z.number().int().min(0).max(100).nullable(),
  /** Sorted. */
  riskCategories: z.array(z.string()),
  sanctionsMatch: monitorSanctionsMatchSchema.nullable(),
  label: z.string().nullable(),
});
export type MonitorVerdict = z.infer<typeof monitorVerdictSchema>;

/** The data the verdict was made from; a source's `importedAt` is absent in verdicts recorded before it was kept. */
export const monitorDataVersionsSchema = z.object({
  taxonomy: z.string(),
  snapshot: z.string().nullable(),
  sources: z.array(sourceVersionSchema.extend({ importedAt: z.string().optional() })),
});
export type MonitorDataVersions = z.infer<typeof monitorDataVersionsSchema>;

/** The monitor's verdict and data versions from the address's light-screen verdict. */
export function monitorVerdictOf(screen: ScreenVerdict): { verdict: MonitorVerdict; dataVersions: MonitorDataVersions } {
  const { verdict, coverage } = screen;
  const sdn = verdict.sanctionsMatch;
  const versions = coverage.dataVersions;
  return {
    verdict: {
      riskLevel: verdict.addressLevel,
      riskScore: verdict.riskScore,
      riskCategories: [...verdict.riskCategories].sort(),
      sanctionsMatch:
        sdn === null
          ? null
          : {
              list: sdn.list,
              entity: sdn.entity,
              program: sdn.program,
              listEntryId: sdn.listEntryId,
              listDate: sdn.listDate,
              source: sdn.source,
            },
      label: verdict.label,
    },
    dataVersions: { taxonomy: versions.taxonomy, snapshot: versions.snapshot, sources: versions.sources.map(sourceVersionOf) },
  };
}

/** A source as the monitor records it (`importedAt` absent where the screen's verdict lacked it). */
const sourceVersionOf = ({ source, version, contentHash, importedAt }: MonitorDataVersions['sources'][number]) =>
  importedAt === undefined ? { source, version, contentHash } : { source, version, contentHash, importedAt };

const sdnKey = (sdn: MonitorVerdict['sanctionsMatch']): string =>
  sdn === null ? '' : JSON.stringify([sdn.list, sdn.entity, sdn.program, sdn.listEntryId, sdn.listDate, sdn.source]);

/** True when the customer must hear about it: level, sanctions match, categories or label differ. */
export function verdictChanged(previous: MonitorVerdict, current: MonitorVerdict): boolean {
  return (
    previous.riskLevel !== current.riskLevel ||
    previous.label !== current.label ||
    sdnKey(previous.sanctionsMatch) !== sdnKey(current.sanctionsMatch) ||
    [...previous.riskCategories].sort().join('\n') !== [...current.riskCategories].sort().join('\n')
  );
}
