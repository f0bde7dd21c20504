import { expect } from 'vitest';
import { eventRegistry, type EventDataOf, type EventType } from '../../domain/events/registry.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import type { Projection } from '../../domain/ports/projection.port.js';
import type { Doc, ReadStore } from '../../domain/ports/read-store.port.js';
import { familyOf } from '../../domain/shared/streams.js';
import { openTempReadStore } from './temp-read-store.js';

/**
 * Given / When / Then for projections, in the style of Emmett's projection specifications:
 *
 *   const spec = projectionSpec(accountsProjection, accountRepository);
 *   await spec.given([opened]).when([joined]).then(async (accounts) => expect(await accounts.get('u1')).toMatchObject(...));
 *   await spec.given([opened]).when([joined]).thenDocument('u1', { ...expected });
 *   await spec.given([opened]).when([unrelated]).thenUnchanged();
 *
 * Events are folded the way the projection runner folds them: each through `idOf`, then `evolve` under the
 * read store's position guard, in order, with positions that grow by one per event. Every event must be a
 * valid stored event (its type registered for its stream's family, its data accepted by the schema), so a
 * fixture cannot describe an event the service never writes. Events are folded into the embedded read store
 * (LMDB, in a temporary directory), whose cache deep-freezes what it holds, so a projection that mutates
 * the document it is given fails here. Every spec also delivers all
 * its events a second time at their positions (as after a crash between documents and checkpoint) and
 * checks that nothing changes. `then` gets the projection's repository over the folded store (the read
 * model as its callers query it) and the raw documents.
 */
export interface TypedSpecEvent<Type extends EventType> {
  readonly stream: string;
  readonly type: Type;
  readonly data: EventDataOf<Type>;
}

/** An event of any registered type, its data typed by its type. */
export type SpecEvent = { [Type in EventType]: TypedSpecEvent<Type> }[EventType];

/** One registered event, typed by its type, for fixtures: `event('account-u1', 'AccountOpened', {...})`. */
export const event = <const Type extends EventType>(stream: string, type: Type, data: EventDataOf<Type>): TypedSpecEvent<Type> => ({
  stream,
  type,
  data,
});

export interface ProjectionSpec<D extends Doc, Repository> {
  given(events?: readonly SpecEvent[]): {
    when(events: readonly SpecEvent[]): ProjectionThen<D, Repository>;
  };
}

export interface ProjectionThen<D extends Doc, Repository> {
  /** Queries the read model after `given` and `when` through its repository (and its raw documents). */
  then(check: (repository: Repository, documents: Documents<D>) => unknown): Promise<void>;
  /** The document under `id` after `given` and `when` is exactly `expected` (null: absent or deleted). */
  thenDocument(id: string, expected: D | null): Promise<void>;
  /** The `when` events change no document of the read model `given` built. */
  thenUnchanged(): Promise<void>;
}

/** The raw documents of the projection's collection, by id (tombstones omitted). */
export type Documents<D extends Doc> = ReadonlyMap<string, D>;

export function projectionSpec<D extends Doc, Repository = ReadStore>(
  projection: Projection<D>,
  repositoryOf: (store: ReadStore) => Repository = (store) => store as Repository,
): ProjectionSpec<D, Repository> {
  return {
    given(given = []) {
      return {
        when(when) {
          /** Folds `events` into a fresh store and hands it to `use`, then closes it (and removes it). */
          const build = async <T>(events: readonly SpecEvent[], use: (store: ReadStore, documents: Documents<D>) => Promise<T> | T) => {
            const store = await openTempReadStore();
            try {
              const stored = recorded(events);
              const touched = await fold(projection, store, stored);
              const documents = await documentsOf(projection, store, touched);
              const retouched = await fold(projection, store, stored);
              const afterRedelivery = await documentsOf(projection, store, new Set([...touched, ...retouched]));
              expect(afterRedelivery, 'a redelivered event changed the read model').toEqual(documents);
              return await use(store, documents);
            } finally {
              await store.close();
            }
          };
          const documentsAfter = (events: readonly SpecEvent[]) => build(events, (_store, documents) => documents);
          return {
            async then(check) {
              await build([...given, ...when], (store, documents) => check(repositoryOf(store), documents));
            },
            async thenDocument(id, expected) {
              const documents = await documentsAfter([...given, ...when]);
              expect(documents.get(id) ?? null).toEqual(expected);
            },
            async thenUnchanged() {
              const before = await documentsAfter(given);
              expect(await documentsAfter([...given, ...when])).toEqual(before);
            },
          };
        },
      };
    },
  };
}

/** Stored events with growing positions and per-stream revisions, each checked against the registry. */
function recorded(events: readonly SpecEvent[]): RecordedEvent[] {
  const revisions = new Map<string, bigint>();
  return events.map((spec, index) => {
    const revision = (revisions.get(spec.stream) ?? -1n) + 1n;
    revisions.set(spec.stream, revision);
    const position = BigInt(index + 1);
    const stored: RecordedEvent = {
      id: `spec-event-${index + 1}`,
      type: spec.type,
      data: spec.data,
      // The spec's events are in their current shape: stored at the type's current version.
      metadata: {
        correlationId: 'projection-spec',
        occurredAt: '2026-01-01T00:00:00.000Z',
        schemaVersion: eventRegistry.versionOf(spec.type),
      },
      streamId: spec.stream,
      revision,
      position: { commit: position, prepare: position },
      created: new Date(0),
    };
    expect(eventRegistry.familiesOf(spec.type), `${spec.type} is not appended to ${spec.stream}`).toContain(familyOf(spec.stream));
    expect(eventRegistry.parse(stored)?.data, `${spec.type} data does not survive its schema unchanged`).toEqual(spec.data);
    return stored;
  });
}

/** Folds the events as the runner does; returns the ids of every document touched. */
async function fold<D extends Doc>(projection: Projection<D>, store: ReadStore, events: readonly RecordedEvent[]): Promise<Set<string>> {
  const collection = store.collection<D>(projection.collection, projection.indexes);
  const touched = new Set<string>();
  for (const stored of events) {
    if (!projection.handles.includes(stored.type)) continue;
    const id = projection.idOf(stored);
    if (id === null) continue;
    touched.add(id);
    await collection.apply(id, stored.position, (current) => projection.evolve(current, stored));
  }
  return touched;
}

async function documentsOf<D extends Doc>(projection: Projection<D>, store: ReadStore, ids: Set<string>): Promise<Documents<D>> {
  const collection = store.collection<D>(projection.collection);
  const documents = new Map<string, D>();
  for (const id of [...ids].sort()) {
    const stored = await collection.get(id);
    if (stored) documents.set(id, stored.doc);
  }
  return documents;
}
