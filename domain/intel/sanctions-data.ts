import { ageInDays, isSanctionsList, listDateOf } from '../coverage/sanctions-coverage.js';
import { fail } from '../shared/errors.js';
import { SANCTIONS_JURISDICTIONS, type DatasetVersion, type SanctionList } from './intel.types.js';

/**
 * Whether the service may screen at all, and how complete and fresh its sanctions data is. Without any
 * sanctions list, or without a list of a jurisdiction the operator requires (SVC_REQUIRED_SANCTIONS), a
 * screen would answer "no risk" for an address it could not check: it fails closed instead (502
 * backend_unavailable, nothing charged). A jurisdiction without a list that is not required still
 * screens, and every verdict says it was not checked; a list past its age still screens (what it knows
 * is still true). Both make health `degraded`, naming why.
 */

export const NO_SANCTIONS_LIST =
  'no sanctions list has been imported yet, so this service cannot screen: nothing was charged (see GET /v2/health)';

export const sanctionsLists = (datasets: readonly DatasetVersion[]): readonly DatasetVersion[] => datasets.filter(isSanctionsList);

/** What the fail-closed rule reads: the lists held, and the jurisdictions the operator requires. */
export interface SanctionsData {
  datasets(): readonly DatasetVersion[];
  readonly requiredSanctions?: readonly SanctionList[];
}

/** The jurisdictions the service screens against that no held list covers. */
export function missingJurisdictions(datasets: readonly DatasetVersion[]): SanctionList[] {
  const held = new Set(sanctionsLists(datasets).map((list) => list.jurisdiction));
  return SANCTIONS_JURISDICTIONS.filter((jurisdiction) => !held.has(jurisdiction));
}

const requiredMissing = (missing: readonly SanctionList[], required: readonly SanctionList[]): SanctionList[] =>
  required.filter((jurisdiction) => missing.includes(jurisdiction));

/** Throws backend_unavailable while no sanctions list, or no list of a required jurisdiction, is held; call it before any charge or payment. */
export function requireSanctionsList(intel: SanctionsData): void {
  const datasets = intel.datasets();
  if (sanctionsLists(datasets).length === 0) throw fail('backend_unavailable', NO_SANCTIONS_LIST);
  const missing = requiredMissing(missingJurisdictions(datasets), intel.requiredSanctions ?? []);
  if (missing.length > 0)
    throw fail(
      'backend_unavailable',
      `no ${missing.join(', ')} sanctions list has been imported and this service requires one (SVC_REQUIRED_SANCTIONS), so it cannot screen: nothing was charged (see GET /v2/health)`,
    );
}

function missingReason(jurisdiction: SanctionList, required: boolean): string {
  return required
    ? `no ${jurisdiction} sanctions list imported and ${jurisdiction} is required (SVC_REQUIRED_SANCTIONS): screening answers 502 backend_unavailable until one is`
    : `no ${jurisdiction} sanctions list imported: verdicts are not checked against ${jurisdiction} sanctions and say so (coverage.sanctions.not_checked)`;
}

/**
 * Why the data makes the service `degraded` (empty: it is not): no sanctions list at all; a jurisdiction
 * with no list (a required one makes screening fail closed); each list past `maxAgeDays`.
 */
export function dataDegradations(
  datasets: readonly DatasetVersion[],
  now: Date,
  maxAgeDays: number,
  required: readonly SanctionList[] = [],
): string[] {
  const lists = sanctionsLists(datasets);
  if (lists.length === 0) return ['no sanctions list imported: screening answers 502 backend_unavailable until one is'];
  const missing = missingJurisdictions(datasets).map((jurisdiction) => missingReason(jurisdiction, required.includes(jurisdiction)));
  const stale = lists
    .map((list) => ({ list, days: ageInDays({ listDate: listDateOf(list.version), importedAt: list.importedAt }, now) }))
    .filter(({ days }) => days > maxAgeDays)
    .map(
      ({ list, days }) =>
        `sanctions list ${list.source} is ${days} days old (version ${list.version}; older than ${maxAgeDays} days): refresh it with \`data sync\``,
    );
  return [...missing, ...stale];
}
