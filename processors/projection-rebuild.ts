import type { EventStore, Position, RecordedEvent } from '../domain/ports/event-store.port.js';
import type { Ids } from '../domain/ports/ids.port.js';
import type { Projection } from '../domain/ports/projection.port.js';
import type { Collection, Doc, ReadStore } from '../domain/ports/read-store.port.js';

/**
 * Rebuilds one read model from `$all` while the service keeps running:
 * 1. fold every event into a fresh shadow collection (the live read model keeps answering meanwhile);
 * 2. the shadow replaces the live collection (the old documents are dropped);
 * 3. re-apply the events appended since the shadow's last one: live runners kept folding them into the
 *    old collection, and the position guard makes re-applying them a no-op wherever they already landed.
 */

export interface RebuildProgress {
  readonly phase: 'fold' | 'catch-up';
  /** Commit position reached and the head's when the phase began: a byte-like scale, not an event count. */
  readonly position: bigint;
  readonly head: bigint;
  readonly events: number;
  readonly applied: number;
}

export interface RebuildReport {
  readonly projection: string;
  readonly collection: string;
  /** Events read from `$all`, and how many of them changed a document. */
  readonly events: number;
  readonly applied: number;
  /** Events whose `evolve` threw: skipped, as the live runner skips them. */
  readonly failed: number;
  readonly firstError: string | null;
  /** Events appended during the rebuild, re-applied after the swap. */
  readonly caughtUp: number;
  readonly documents: number;
  readonly ms: number;
}

const REPORT_EVERY = 1000;

export async function rebuildProjection(
  deps: { store: Pick<EventStore, 'readAll' | 'headPosition'>; readStore: ReadStore; ids: Ids },
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<RebuildReport> {
  const started = performance.now();
  const handles = new Set(projection.handles);
  let events = 0;
  let applied = 0;
  let failed = 0;
  let firstError: string | null = null;

  async function fold(into: Collection<Doc>, phase: RebuildProgress['phase'], after: Position | null): Promise<Position | null> {
    const head = (await deps.store.headPosition())?.commit ?? 0n;
    let last = after;
    const report = () => onProgress({ phase, position: last?.commit ?? 0n, head, events, applied });
    for await (const event of deps.store.readAll({ after: after ?? 'start' })) {
      events += 1;
      last = event.position;
      if (handles.has(event.type)) await applyOne(into, event);
      if (events % REPORT_EVERY === 0) report();
    }
    report();
    return last;
  }

  async function applyOne(into: Collection<Doc>, event: RecordedEvent) {
    try {
      const id = projection.idOf(event);
      if (id !== null && (await into.apply(id, event.position, (doc) => projection.evolve(doc, event))) === 'applied') applied += 1;
    } catch (error) {
      failed += 1;
      firstError ??= `${event.type} at ${event.position.commit}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  const shadowName = `${projection.collection}__rebuild_${deps.ids.newId().replaceAll('-', '').slice(0, 12)}`;
  let last: Position | null;
  try {
    last = await fold(deps.readStore.collection(shadowName, projection.indexes), 'fold', null);
    await deps.readStore.replace(projection.collection, shadowName);
  } catch (error) {
    await deps.readStore.drop(shadowName).catch(() => undefined);
    throw error;
  }
  const live = deps.readStore.collection(projection.collection, projection.indexes);
  const folded = events;
  await fold(live, 'catch-up', last);
  return {
    projection: projection.name,
    collection: projection.collection,
    events: folded,
    applied,
    failed,
    firstError,
    caughtUp: events - folded,
    documents: await live.count({}),
    ms: Math.round(performance.now() - started),
  };
}
