import { z } from 'zod';
import { SANCTIONS_JURISDICTIONS } from '../intel/intel.types.js';
import { ageInDays, type SanctionsCoverage } from '../coverage/sanctions-coverage.js';

/**
 * `coverage.sanctions` in the API's words: the lists checked per jurisdiction, each with its own date and
 * its age at the verdict, and the jurisdictions not checked. Here, beside the webhook payloads, because
 * those payloads carry it and are recorded as sent (docs/ARCHITECTURE.md, "Verdicts as domain facts");
 * every response body presents it with the same function. The fact is ../coverage/sanctions-coverage.ts.
 */

const jurisdiction = z.enum(SANCTIONS_JURISDICTIONS);

export const sanctionsCoverageSchema = z
  .strictObject({
    as_of: z.string().meta({ description: 'When the lists were read for this verdict; ages count to it' }),
    checked: z.array(jurisdiction).meta({ description: 'Jurisdictions whose sanctions lists this verdict was checked against' }),
    not_checked: z
      .array(jurisdiction)
      .meta({ description: 'Jurisdictions with no list held: this verdict says nothing about them (unknown, not clear)' }),
    lists: z.array(
      z.strictObject({
        jurisdiction: jurisdiction.nullable(),
        source: z.string(),
        name: z.string(),
        version: z.string(),
        list_date: z.string().nullable().meta({ description: "The list's own publication date (YYYY-MM-DD); null when it states none" }),
        age_days: z.number().int().min(0).meta({ description: 'Days from list_date (else imported_at) to as_of' }),
        imported_at: z.string(),
        content_hash: z.string(),
      }),
    ),
  })
  .meta({ description: 'Which sanctions lists this verdict was checked against, per jurisdiction, and which it was not' });
export type SanctionsCoverageBody = z.infer<typeof sanctionsCoverageSchema>;

export function sanctionsCoverageBody(coverage: SanctionsCoverage): SanctionsCoverageBody {
  const at = new Date(coverage.at);
  return {
    as_of: coverage.at,
    checked: [...coverage.checked],
    not_checked: [...coverage.notChecked],
    lists: coverage.lists.map((list) => ({
      jurisdiction: list.jurisdiction,
      source: list.source,
      name: list.name,
      version: list.version,
      list_date: list.listDate,
      age_days: ageInDays(list, at),
      imported_at: list.importedAt,
      content_hash: list.contentHash,
    })),
  };
}
