import { fail } from '../shared/errors.js';
import type { DatasetVersion } from './intel.types.js';

/**
 * Whether the service may screen at all, and how fresh its sanctions data is. Without any sanctions
 * list a screen would answer "no risk" for a sanctioned address: it fails closed instead (502
 * backend_unavailable, nothing charged). A list past its age still screens (what it knows is still
 * true), but health says `degraded` and names it.
 */

export const NO_SANCTIONS_LIST =
  'no sanctions list has been imported yet, so this service cannot screen: nothing was charged (see GET /v2/health)';

export const sanctionsLists = (datasets: readonly DatasetVersion[]): readonly DatasetVersion[] =>
  datasets.filter((dataset) => dataset.sourceClass === 'sanctions_registry');

/** Throws backend_unavailable while no sanctions list is held; call it before any charge or payment. */
export function requireSanctionsList(intel: { datasets(): readonly DatasetVersion[] }): void {
  if (sanctionsLists(intel.datasets()).length === 0) throw fail('backend_unavailable', NO_SANCTIONS_LIST);
}

const DAY_MS = 86_400_000;

/** A list's date: its own publication date when it states one (YYYY-MM-DD), else when it was imported. */
function listDate(dataset: DatasetVersion): number {
  const stated = /^\d{4}-\d{2}-\d{2}/.test(dataset.version) ? Date.parse(dataset.version.slice(0, 10)) : Number.NaN;
  return Number.isNaN(stated) ? Date.parse(dataset.importedAt) : stated;
}

/** Why the data makes the service `degraded` (empty: it is not): no sanctions list, or each list past `maxAgeDays`. */
export function dataDegradations(datasets: readonly DatasetVersion[], now: Date, maxAgeDays: number): string[] {
  const lists = sanctionsLists(datasets);
  if (lists.length === 0) return ['no sanctions list imported: screening answers 502 backend_unavailable until one is'];
  return lists
    .map((list) => ({ list, days: Math.floor((now.getTime() - listDate(list)) / DAY_MS) }))
    .filter(({ days }) => days > maxAgeDays)
    .map(
      ({ list, days }) =>
        `sanctions list ${list.source} is ${days} days old (version ${list.version}; older than ${maxAgeDays} days): refresh it with \`data sync\``,
    );
}
