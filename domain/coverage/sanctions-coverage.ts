import { z } from 'zod';
import { SANCTIONS_JURISDICTIONS, type DatasetVersion, type SanctionList } from '../intel/intel.types.js';

/**
 * Which sanctions lists a verdict was checked against, per jurisdiction, and which it could NOT be
 * checked against (no list of that jurisdiction held): a verdict never says "not sanctioned" of a list
 * it did not read. A domain fact, recorded with the verdict (tier 0's outcome, the transfer check's
 * completion) and shaped for the wire by `sanctionsCoverageBody`.
 */

const DAY_MS = 86_400_000;

export const listCheckedSchema = z.object({
  /** Null only for a list imported before lists carried a jurisdiction and with no entry to tell it by. */
  jurisdiction: z.enum(SANCTIONS_JURISDICTIONS).nullable(),
  source: z.string(),
  name: z.string(),
  version: z.string(),
  /** The list's own publication date (YYYY-MM-DD) when it states one. */
  listDate: z.string().nullable(),
  importedAt: z.string(),
  contentHash: z.string(),
});
export type ListChecked = z.infer<typeof listCheckedSchema>;

export const sanctionsCoverageFactSchema = z.object({
  /** When the lists were read for this verdict: ages count to it. */
  at: z.string(),
  lists: z.array(listCheckedSchema),
  /** Jurisdictions with at least one list held: the address was checked against them. */
  checked: z.array(z.enum(SANCTIONS_JURISDICTIONS)),
  /** Jurisdictions the service screens against that have no list held: NOT checked. */
  notChecked: z.array(z.enum(SANCTIONS_JURISDICTIONS)),
});
export type SanctionsCoverage = z.infer<typeof sanctionsCoverageFactSchema>;

export const isSanctionsList = (dataset: DatasetVersion): boolean => dataset.sourceClass === 'sanctions_registry';

/** A version that is a date (YYYY-MM-DD…) is the list's own date; a commit or `retrieved-…` is not. */
export function listDateOf(version: string): string | null {
  const date = /^\d{4}-\d{2}-\d{2}/.exec(version)?.[0];
  return date !== undefined && !Number.isNaN(Date.parse(date)) ? date : null;
}

/** Whole days from the list's own date (its import time when it states none) to `at`. */
export function ageInDays(list: Pick<ListChecked, 'listDate' | 'importedAt'>, at: Date): number {
  const since = list.listDate === null ? Date.parse(list.importedAt) : Date.parse(list.listDate);
  return Math.max(0, Math.floor((at.getTime() - since) / DAY_MS));
}

function listChecked(dataset: DatasetVersion): ListChecked {
  return {
    jurisdiction: dataset.jurisdiction ?? null,
    source: dataset.source,
    name: dataset.name ?? dataset.source,
    version: dataset.version,
    listDate: listDateOf(dataset.version),
    importedAt: dataset.importedAt,
    contentHash: dataset.contentHash,
  };
}

const jurisdictionOrder = (j: SanctionList | null): number =>
  j === null ? SANCTIONS_JURISDICTIONS.length : SANCTIONS_JURISDICTIONS.indexOf(j);

/** The coverage of a verdict made at `at` from the data sets the index holds (only its sanctions lists count). */
export function sanctionsCoverage(datasets: readonly DatasetVersion[], at: Date): SanctionsCoverage {
  const lists = datasets
    .filter(isSanctionsList)
    .map(listChecked)
    .sort((a, b) => jurisdictionOrder(a.jurisdiction) - jurisdictionOrder(b.jurisdiction) || (a.source < b.source ? -1 : 1));
  const held = new Set(lists.map((list) => list.jurisdiction));
  return {
    at: at.toISOString(),
    lists,
    checked: SANCTIONS_JURISDICTIONS.filter((j) => held.has(j)),
    notChecked: SANCTIONS_JURISDICTIONS.filter((j) => !held.has(j)),
  };
}
