import { curationStreams } from '../domain/intel/curation.events.js';
import { datasetStreams } from '../domain/intel/dataset.events.js';
import type { SanctionList } from '../domain/intel/intel.types.js';
import type { EventStore, RecordedEvent } from '../domain/ports/event-store.port.js';
import type { IntelHistory } from '../domain/ports/intel-history.port.js';
import { normalizeAddress } from '../domain/shared/address.js';
import type { StoredEvent } from '../domain/shared/event-registry.js';
import { createIntelIndex } from './intel-index.js';

/** A progress report every this many intelligence events (a large import is thousands of claim batches). */
const PROGRESS_EVERY = 500;

type AddressRow = { readonly address?: unknown };

const keeps = (wanted: ReadonlySet<string>) => (row: AddressRow) =>
  typeof row.address === 'string' && wanted.has(normalizeAddress(row.address));

/**
 * The event as the bounded index sees it: a claim batch or token list keeps the wanted addresses' rows
 * only (the rest could not change a verdict about them); every other event is folded whole, so each
 * source's version, content hash and claim count stay exactly as recorded.
 */
function bounded(event: RecordedEvent, wanted: ReadonlySet<string>): StoredEvent {
  const data = event.data as Record<string, unknown> | null;
  if (event.type === 'ClaimBatchImported' && Array.isArray(data?.batch))
    return { ...event, data: { ...data, batch: (data.batch as AddressRow[]).filter(keeps(wanted)) } };
  if (event.type === 'TokensImported' && Array.isArray(data?.tokens))
    return { ...event, data: { ...data, tokens: (data.tokens as AddressRow[]).filter(keeps(wanted)) } };
  return event;
}

/** The as-of index of docs/ARCHITECTURE.md#verdict-replay, over the log's own subscription (one filtered read from the start). */
export function intelHistory(store: EventStore, options: { requiredSanctions?: readonly SanctionList[] } = {}): IntelHistory {
  return {
    async asOf({ addresses, verdict, signal, onProgress }) {
      const wanted = new Set(addresses.map(normalizeAddress));
      const index = createIntelIndex(options);
      const streamPrefixes = [datasetStreams.prefix, curationStreams.prefix, verdict.streamPrefix];
      let folded = 0;
      for await (const delivery of store.subscribeToAll({ from: 'start', filter: { streamPrefixes }, signal })) {
        if (delivery.kind === 'caughtUp') return null;
        const { event } = delivery;
        const intel = datasetStreams.owns(event.streamId) || curationStreams.owns(event.streamId);
        if (!intel) {
          if (verdict.isVerdict(event)) return index;
          continue;
        }
        if (!index.handles.includes(event.type)) continue;
        index.apply(bounded(event, wanted));
        if (++folded % PROGRESS_EVERY === 0) onProgress?.({ intelEvents: folded });
      }
      return null;
    },
  };
}
