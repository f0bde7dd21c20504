import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Explore jobs as the code before explore reports were domain facts stored and served them (main at
 * a817e45): the events of each job's stream (ExploreCompleted at schema version 1, its `report` the
 * response body) and the body its result route answered, without `billing`, with its status. Written by
 * test/support/stored-explores.writer.test.ts on the full-check tests' made-up graph: five jobs on V2 (both
 * directions, incoming, outgoing, an address with nothing) and one paid on x402.
 */
export interface StoredExplore {
  readonly jobId: string;
  /** The channel it was requested and read on: V2 (GET /v2/explore/{id}/result) or x402 (the free GET /explore/{id}/result). */
  readonly served: 'v2' | 'x402';
  readonly status: number;
  readonly events: readonly { type: string; data: Record<string, unknown>; metadata: Record<string, unknown> }[];
  readonly body: Record<string, unknown>;
}

export const STORED_EXPLORES: { readonly ownerId: string; readonly keyId: string; readonly explores: readonly StoredExplore[] } =
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'verdicts', 'explores-v1.json'), 'utf8'));

export const exploreCompletedOf = (explore: StoredExplore) => {
  const event = explore.events.find((e) => e.type === 'ExploreCompleted');
  if (!event) throw new Error(`stored explore ${explore.jobId} has no ExploreCompleted`);
  return event;
};

/** A body as older code stored it, before the search reported its stops (absent; served as null): what was stored and what is served. */
export function withoutStops(body: Record<string, unknown>): { stored: Record<string, unknown>; served: Record<string, unknown> } {
  const stored = structuredClone(body) as Record<string, any>;
  for (const direction of ['incoming', 'outgoing']) if (stored[direction]) delete stored[direction].stops;
  const served = structuredClone(stored);
  for (const direction of ['incoming', 'outgoing']) if (served[direction]) served[direction].stops = null;
  return { stored, served };
}
