import { eventRegistry } from '../domain/events/registry.js';
import { CURATOR_SOURCE, curationStream } from '../domain/intel/curation.events.js';
import type { Claim } from '../domain/intel/intel.types.js';
import { changedAddresses } from '../domain/monitors/claim-diff.js';
import type { ChangeReason } from '../domain/intel/change-reason.js';
import type { EventStore } from '../domain/ports/event-store.port.js';
import { normalizeAddress } from '../domain/shared/address.js';
import { storedEventOf, type BusEvent } from './processor.js';

/**
 * What one intelligence event changed, for the monitors: the change's key (its idempotency key on every
 * monitor stream), the addresses whose claims differ, and the reasons customers are given. A completed
 * import is diffed against the source's previous completed import, read backwards from the event store:
 * the cost follows the two versions' claims, never the number of monitors.
 */
export interface IntelChange {
  readonly changeKey: string;
  readonly addresses: ReadonlySet<string>;
  readonly reasons: readonly ChangeReason[];
}

export const INTEL_CHANGE_EVENTS = new Set(['DatasetImportCompleted', 'CuratorEntryAdded', 'CuratorEntryRetracted']);

export async function intelChangeOf(store: EventStore, event: BusEvent): Promise<IntelChange | null> {
  switch (event.type) {
    case 'DatasetImportCompleted':
      return datasetChange(store, event);
    case 'CuratorEntryAdded': {
      const entry = eventRegistry.dataOf('CuratorEntryAdded', event);
      return {
        changeKey: `curation:${entry.entryId}:added`,
        addresses: new Set([normalizeAddress(entry.address)]),
        reasons: [
          { source: CURATOR_SOURCE.slug, change: 'curator_entry_added', version: entry.addedAt.slice(0, 10), changedAt: entry.addedAt },
        ],
      };
    }
    case 'CuratorEntryRetracted': {
      const retracted = eventRegistry.dataOf('CuratorEntryRetracted', event);
      const addresses = new Set<string>();
      for await (const recorded of store.read(curationStream(retracted.entryId))) {
        if (recorded.type === 'CuratorEntryAdded')
          addresses.add(normalizeAddress(eventRegistry.dataOf('CuratorEntryAdded', recorded).address));
      }
      return {
        changeKey: `curation:${retracted.entryId}:retracted`,
        addresses,
        reasons: [
          {
            source: CURATOR_SOURCE.slug,
            change: 'curator_entry_retracted',
            version: retracted.retractedAt.slice(0, 10),
            changedAt: retracted.retractedAt,
          },
        ],
      };
    }
    default:
      return null;
  }
}

/** This import's claims and the previous completed import's, read backwards from the Completed event. */
async function datasetChange(store: EventStore, event: BusEvent): Promise<IntelChange | null> {
  const completed = eventRegistry.dataOf('DatasetImportCompleted', event);
  const current: Claim[] = [];
  const previous: Claim[] = [];
  let phase: 'current' | 'seek-previous' | 'previous' = 'current';
  let started: { version: string; importedAt: string; slug: string } | null = null;
  let previousHash: string | null = null;
  for await (const recorded of store.read(event.streamId, { fromRevision: storedEventOf(event).revision, direction: 'backwards' })) {
    if (phase === 'seek-previous') {
      if (recorded.type === 'DatasetImportCompleted') {
        previousHash = eventRegistry.dataOf('DatasetImportCompleted', recorded).contentHash;
        phase = 'previous';
      }
      continue;
    }
    const into = phase === 'current' ? current : previous;
    if (recorded.type === 'ClaimBatchImported') into.push(...(recorded.data as { batch: Claim[] }).batch);
    else if (recorded.type === 'DatasetImportStarted') {
      const data = eventRegistry.dataOf('DatasetImportStarted', recorded);
      if (phase === 'current' && data.contentHash === completed.contentHash) {
        started = { version: data.version, importedAt: data.importedAt, slug: data.descriptor.alias ?? data.descriptor.slug };
        phase = 'seek-previous';
      } else if (phase === 'previous' && data.contentHash === previousHash) break;
    }
  }
  if (started === null) return null;
  return {
    changeKey: `dataset:${completed.source}:${completed.contentHash}`,
    addresses: changedAddresses(previous, current),
    reasons: [{ source: started.slug, change: 'dataset_imported', version: started.version, changedAt: started.importedAt }],
  };
}
