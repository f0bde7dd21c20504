import { curationDecider } from '../domain/intel/curation.decider.js';
import { curationStream, type CuratorEntry } from '../domain/intel/curation.events.js';
import type { Position } from '../domain/ports/event-store.port.js';
import { normalizeAddress } from '../domain/shared/address.js';
import type { CommandDeps } from './command-deps.js';

/** Adds a curated claim; the entry id is new unless the caller gives one (a retried call with the same id adds nothing). */
export async function addCuratorEntry(
  deps: CommandDeps,
  input: Omit<CuratorEntry, 'entryId' | 'addedAt'> & { entryId?: string },
): Promise<{ entryId: string; added: boolean; position: Position | null }> {
  const entryId = input.entryId ?? deps.ids.newId();
  const outcome = await deps.executor.execute(
    curationStream(entryId),
    curationDecider,
    { ...input, type: 'AddCuratorEntry', entryId, address: normalizeAddress(input.address), addedAt: deps.clock.now().toISOString() },
    { commandId: `curate-add:${entryId}` },
  );
  return { entryId, added: outcome.events.length > 0, position: outcome.position };
}

export async function retractCuratorEntry(
  deps: CommandDeps,
  input: { entryId: string; reason: string; curator: string },
): Promise<{ retracted: boolean; position: Position | null }> {
  const outcome = await deps.executor.execute(
    curationStream(input.entryId),
    curationDecider,
    { type: 'RetractCuratorEntry', ...input, retractedAt: deps.clock.now().toISOString() },
    { commandId: `curate-retract:${input.entryId}` },
  );
  return { retracted: outcome.events.length > 0, position: outcome.position };
}
