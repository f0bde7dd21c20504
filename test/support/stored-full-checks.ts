import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Full checks as the code before verdicts were domain facts stored and served them (main at 15edcf9): the
 * events of each check's stream (CheckCompleted at schema version 1, its `result` the response body) and
 * the 200 body it answered, without `receipt` and `billing`. Written by running that code's service on
 * the full-check tests' made-up data (test/support/full-check-data.ts): an address with indirect exposure
 * (review, medium), one paid by a sanctioned address (high), a sanctioned one (reject) and an unknown one.
 */
export interface StoredFullCheck {
  readonly checkId: string;
  readonly events: readonly { type: string; data: Record<string, unknown>; metadata: Record<string, unknown> }[];
  readonly body: Record<string, unknown>;
}

export const STORED_FULL_CHECKS: { readonly ownerId: string; readonly keyId: string; readonly checks: readonly StoredFullCheck[] } =
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'verdicts', 'full-checks-v1.json'), 'utf8'));

export const checkCompletedOf = (check: StoredFullCheck) => {
  const event = check.events.find((e) => e.type === 'CheckCompleted');
  if (!event) throw new Error(`stored check ${check.checkId} has no CheckCompleted`);
  return event;
};

const EXPOSURES = ['direct_incoming', 'direct_outgoing', 'source_of_funds', 'destination_of_funds'] as const;

/**
 * A body as still older code stored it: before the search reported its stops (absent; served as null),
 * before verdicts stated their sanctions lists, and before data versions kept the transfer data and when
 * each source was imported. Returns what was stored and what is served.
 */
export function olderShapeOf(body: Record<string, unknown>): { stored: Record<string, unknown>; served: Record<string, unknown> } {
  const stored = structuredClone(body) as Record<string, any>;
  for (const name of EXPOSURES) delete stored.exposure[name].stops;
  delete stored.coverage.sanctions;
  delete stored.coverage.data_versions.transfer_data;
  for (const source of stored.coverage.data_versions.sources) delete source.imported_at;
  const served = structuredClone(stored);
  for (const name of EXPOSURES) served.exposure[name].stops = null;
  return { stored, served };
}
