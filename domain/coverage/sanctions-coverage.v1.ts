import type { SanctionList } from '../intel/intel.types.js';
import type { SanctionsCoverage } from './sanctions-coverage.js';

/**
 * `coverage.sanctions` as version-1 verdict events stored it (the response body's words), read by the
 * upcasters of the screen, the full check and the transfer check: the historical record, not a shape
 * anyone builds. `age_days` is not read back: it follows from the list's dates and `as_of`.
 */
export interface SanctionsCoverageV1 {
  as_of: string;
  checked: SanctionList[];
  not_checked: SanctionList[];
  lists: {
    jurisdiction: SanctionList | null;
    source: string;
    name: string;
    version: string;
    list_date: string | null;
    age_days: number;
    imported_at: string;
    content_hash: string;
  }[];
}

export function sanctionsCoverageFactOf(body: SanctionsCoverageV1): SanctionsCoverage {
  return {
    at: body.as_of,
    checked: [...body.checked],
    notChecked: [...body.not_checked],
    lists: body.lists.map((list) => ({
      jurisdiction: list.jurisdiction,
      source: list.source,
      name: list.name,
      version: list.version,
      listDate: list.list_date,
      importedAt: list.imported_at,
      contentHash: list.content_hash,
    })),
  };
}
