import { CURATOR_SOURCE, curationStreams } from '../domain/intel/curation.events.js';
import { datasetStreams } from '../domain/intel/dataset.events.js';
import type { SanctionList } from '../domain/intel/intel.types.js';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../domain/ports/event-store.port.js';
import type { IntelHistory, VerdictEventRef } from '../domain/ports/intel-history.port.js';
import { normalizeAddress } from '../domain/shared/address.js';
import type { StoredEvent } from '../domain/shared/event-registry.js';
import { createIntelIndex, type IntelIndexProjection } from './intel-index.js';

type AddressRow = { readonly address?: unknown };
type Log = Pick<EventStore, 'read'>;

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

/** What the as-of fold read, for its progress line and the benchmark. */
interface Reads {
  events: number;
}

const before = (at: Position) => (event: RecordedEvent) => comparePositions(event.position, at) < 0;

/** The verdict's own event's position: its stream read backwards (one check's stream, one owner's ledger). */
async function verdictPosition(log: Log, verdict: VerdictEventRef, reads: Reads): Promise<Position | null> {
  for await (const event of log.read(verdict.streamPrefix, { direction: 'backwards' })) {
    reads.events++;
    if (verdict.isVerdict(event)) return event.position;
  }
  return null;
}

/** One source's import in force at a position: its events, Started to Completed, in log order. */
interface InForce {
  readonly source: string;
  readonly events: readonly RecordedEvent[];
  readonly started: { readonly contentHash: string };
  readonly completedAt: Position;
}

/**
 * The source's last valid import completed before `at`, found by reading its stream backwards (an import is
 * one append, so its events are contiguous): what was read is that import and the ones after `at`, never older ones.
 */
async function importInForce(log: Log, source: string, at: Position, reads: Reads): Promise<InForce | null> {
  let open: RecordedEvent[] | null = null;
  let completedHash = '';
  for await (const event of log.read(datasetStreams.stream(source), { direction: 'backwards' })) {
    reads.events++;
    if (!before(at)(event)) continue;
    if (event.type === 'DatasetImportCompleted') {
      open = [event];
      completedHash = (event.data as { contentHash?: string }).contentHash ?? '';
    } else if (open) open.push(event);
    if (event.type !== 'DatasetImportStarted' || !open) continue;
    const started = event.data as { contentHash: string };
    // A completion whose hash is not its start's leaves the previous import in force (the index drops it).
    if (started.contentHash === completedHash) {
      const events = open.reverse();
      return { source, events, started, completedAt: (events.at(-1) as RecordedEvent).position };
    }
    open = null;
  }
  return null;
}

/**
 * The import's events as the as-of index folds them: when the live index still holds this very content
 * (same content hash), the wanted addresses' rows come from it and the recorded batches are not folded;
 * otherwise the recorded batches, bounded to the wanted addresses.
 */
function foldable(held: InForce, live: IntelIndexProjection | null, wanted: ReadonlySet<string>): StoredEvent[] {
  const [first, ...rest] = held.events;
  const last = rest.at(-1);
  const rows = live?.rowsOf(held.source, held.started.contentHash, wanted);
  if (!rows || !first || !last) return held.events.map((event) => bounded(event, wanted));
  const source = held.source;
  const middle: StoredEvent[] = [{ ...first, type: 'ClaimBatchImported', data: { source, batch: rows.claims } }];
  if (rows.tokens.length > 0) middle.push({ ...first, type: 'TokensImported', data: { source, tokens: rows.tokens } });
  return [first, ...middle, last];
}

/** The curated entries' events before `at`, in log order (one short stream per entry ever curated). */
async function curationBefore(log: Log, entries: readonly string[], at: Position, reads: Reads): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (const entry of entries)
    for await (const event of log.read(curationStreams.stream(entry))) {
      reads.events++;
      if (before(at)(event)) events.push(event);
    }
  return events.sort((a, b) => comparePositions(a.position, b.position));
}

export interface IntelHistoryOptions {
  readonly requiredSanctions?: readonly SanctionList[];
  /** The live index: lists the sources, and gives the rows of imports still in force today. */
  readonly live?: IntelIndexProjection;
}

/**
 * The as-of index of docs/ARCHITECTURE.md#verdict-replay. Without `live` (a test's bare log) it cannot list
 * the sources, so it reads the dataset and curation streams through one filtered read from the start.
 */
export function intelHistory(store: EventStore, options: IntelHistoryOptions = {}): IntelHistory {
  const { live } = options;
  if (!live) return scanningHistory(store, options.requiredSanctions ?? []);
  return {
    async asOf({ addresses, verdict, signal, onProgress }) {
      const reads: Reads = { events: 0 };
      const at = await verdictPosition(store, verdict, reads);
      if (!at) return null;
      const wanted = new Set(addresses.map(normalizeAddress));
      const sources = live.datasets().flatMap((d) => (d.source === CURATOR_SOURCE.slug ? [] : [d.source]));
      const index = createIntelIndex({ requiredSanctions: options.requiredSanctions ?? [], slotOrder: sources });
      const held: InForce[] = [];
      for (const source of sources) {
        if (signal.aborted) return null;
        const found = await importInForce(store, source, at, reads);
        if (found) held.push(found);
      }
      // Installed in the order they completed, so every address's claims come in the order the log gave them.
      held.sort((a, b) => comparePositions(a.completedAt, b.completedAt));
      for (const found of held) for (const event of foldable(found, live, wanted)) index.apply(event);
      for (const event of await curationBefore(store, live.curationEntries(), at, reads)) index.apply(event);
      onProgress?.({ intelEvents: reads.events });
      return index;
    },
  };
}

/** A progress report every this many intelligence events (a large import is thousands of claim batches). */
const PROGRESS_EVERY = 500;

/** The fold from the start of the log: for a store with no live index beside it. */
function scanningHistory(store: EventStore, requiredSanctions: readonly SanctionList[]): IntelHistory {
  return {
    async asOf({ addresses, verdict, signal, onProgress }) {
      const wanted = new Set(addresses.map(normalizeAddress));
      const index = createIntelIndex({ requiredSanctions });
      const streamPrefixes = [datasetStreams.prefix, curationStreams.prefix, verdict.streamPrefix];
      let folded = 0;
      for await (const delivery of store.subscribeToAll({ from: 'start', filter: { streamPrefixes }, signal })) {
        if (delivery.kind === 'caughtUp') return null;
        if (delivery.kind === 'checkpoint') continue;
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
