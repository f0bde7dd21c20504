import type { CommandDeps } from '../commands/command-deps.js';
import { finishProjectionRebuild, startProjectionRebuild } from '../commands/projection-rebuild.commands.js';
import { eventRegistry } from '../domain/events/registry.js';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../domain/ports/event-store.port.js';
import type { Projection } from '../domain/ports/projection.port.js';
import type { Collection, Doc, ReadStore } from '../domain/ports/read-store.port.js';

/**
 * Rebuilds one read model from `$all` while the service keeps answering from the old documents:
 * 1. `ProjectionRebuildStarted` is appended: every projection runner, in every process, stops writing
 *    this read model when it reads it (processors/rebuild-pauses.ts);
 * 2. every event of `$all` is folded into a fresh shadow collection;
 * 3. the shadow replaces the live collection (the old documents are dropped) — no runner is writing it;
 * 4. `ProjectionRebuildFinished` names the shadow's last event: each runner applies what it skipped from
 *    there and goes on. The position guard makes runners of several processes agree.
 * On failure the shadow is dropped and the rebuild finishes as abandoned: runners resume on the old one.
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
  /** Events read from `$all` into the shadow, and how many of them changed a document. */
  readonly events: number;
  readonly applied: number;
  /** Events whose `evolve` threw: skipped, as the live runner skips them. */
  readonly failed: number;
  readonly firstError: string | null;
  /** Events appended during the rebuild, applied by the runners after the swap. */
  readonly caughtUp: number;
  readonly documents: number;
  readonly ms: number;
}

const REPORT_EVERY = 1000;

export async function rebuildProjection(
  deps: {
    store: Pick<EventStore, 'readAll' | 'headPosition'>;
    readStore: ReadStore;
    commands: CommandDeps;
    /** Resolves once this process's projection runner has processed `position`. */
    whenProjected(position: Position): Promise<void>;
  },
  projection: Projection,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<RebuildReport> {
  const started = performance.now();
  const handles = new Set(projection.handles);
  let events = 0;
  let applied = 0;
  let failed = 0;
  let firstError: string | null = null;

  async function applyOne(into: Collection<Doc>, event: RecordedEvent) {
    try {
      const id = projection.idOf(event);
      if (id !== null && (await into.apply(id, event.position, (doc) => projection.evolve(doc, event))) === 'applied') applied += 1;
    } catch (error) {
      failed += 1;
      firstError ??= `${event.type} at ${event.position.commit}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  async function fold(into: Collection<Doc>): Promise<Position | null> {
    const head = (await deps.store.headPosition())?.commit ?? 0n;
    let last: Position | null = null;
    const report = () => onProgress({ phase: 'fold', position: last?.commit ?? 0n, head, events, applied });
    for await (const event of deps.store.readAll()) {
      events += 1;
      last = event.position;
      if (handles.has(eventRegistry.readAs(event.type) ?? event.type)) await applyOne(into, event);
      if (events % REPORT_EVERY === 0) report();
    }
    report();
    return last;
  }

  const { rebuildId } = await startProjectionRebuild(deps.commands, projection.name);
  const shadowName = `${projection.collection}__rebuild_${rebuildId.replaceAll('-', '').slice(-12)}`;
  let last: Position | null;
  try {
    last = await fold(deps.readStore.collection(shadowName, projection.indexes));
    await deps.readStore.replace(projection.collection, shadowName);
  } catch (error) {
    await deps.readStore.drop(shadowName).catch(() => undefined);
    await finishProjectionRebuild(deps.commands, projection.name, rebuildId, null).catch(() => undefined);
    throw error;
  }
  const finished = await finishProjectionRebuild(deps.commands, projection.name, rebuildId, last);
  await deps.whenProjected(finished);

  let caughtUp = 0;
  for await (const event of deps.store.readAll({ after: last ?? 'start' })) {
    if (comparePositions(event.position, finished) >= 0) break;
    caughtUp += 1;
  }
  onProgress({ phase: 'catch-up', position: finished.commit, head: finished.commit, events, applied });
  return {
    projection: projection.name,
    collection: projection.collection,
    events,
    applied,
    failed,
    firstError,
    caughtUp,
    documents: await deps.readStore.collection(projection.collection, projection.indexes).count({}),
    ms: Math.round(performance.now() - started),
  };
}
