import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../domain/ports/event-store.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';

/**
 * An in-process index fed by events (e.g. the intelligence index). A restart resumes the read models from
 * their checkpoint, so a sink names what it needs from before it: `history` lists the stream prefixes
 * whose events it is rebuilt from at start (read with a server-side filter), or 'none' for a sink that
 * only wakes waiters of this process. A sink whose state spans other streams keeps it in a read model.
 */
export interface EventSink {
  readonly handles: readonly string[];
  readonly history: { readonly streamPrefixes: readonly string[] } | 'none';
  apply(event: RecordedEvent): void;
}

/**
 * The streams sinks are rebuilt from (one document per stream, named the first time one of its events is
 * folded), kept by the runner that folds the read models, in the same commits as its checkpoint: so the
 * list is complete up to that checkpoint, whichever thread holds the sinks.
 */
export const SINK_STREAMS = 'sink_streams';
export type SinkStreamDoc = { readonly stream: string };

/** The stream prefixes the sinks are rebuilt from. */
export const historyPrefixesOf = (sinks: readonly EventSink[]): string[] => [
  ...new Set(sinks.flatMap((sink) => (sink.history === 'none' ? [] : sink.history.streamPrefixes))),
];

/** k-way merge of streams by `$all` position (k is small: the dataset and curation streams). */
async function* mergeInLogOrder(streams: AsyncIterator<RecordedEvent>[]): AsyncGenerator<RecordedEvent> {
  const heads = await Promise.all(streams.map(async (it) => ({ it, next: await it.next() })));
  for (;;) {
    let first: (typeof heads)[number] | undefined;
    for (const head of heads) {
      if (head.next.done) continue;
      if (!first || comparePositions(head.next.value.position, first.next.value.position) < 0) first = head;
    }
    if (!first || first.next.done) return;
    yield first.next.value;
    first.next = await first.it.next();
  }
}

/**
 * Hands the sinks with a history the events of their streams up to `upTo` (the checkpoint their live
 * events resume after), read stream by stream from SINK_STREAMS and merged in log order: a start reads the
 * dataset streams, however long `$all` has grown. Resolves with the number of events read.
 */
export async function replaySinkHistory(
  deps: { readonly store: Pick<EventStore, 'read'>; readonly readStore: ReadStore },
  sinks: readonly EventSink[],
  upTo: Position,
): Promise<number> {
  const withHistory = sinks.filter((sink) => sink.history !== 'none');
  if (withHistory.length === 0) return 0;
  const streams = await deps.readStore.collection<SinkStreamDoc>(SINK_STREAMS).find({});
  const merged = mergeInLogOrder(streams.map((doc) => deps.store.read(doc.stream)[Symbol.asyncIterator]()));
  let read = 0;
  for await (const event of merged) {
    if (comparePositions(event.position, upTo) > 0) break;
    read += 1;
    for (const sink of withHistory) if (sink.handles.includes(event.type)) sink.apply(event);
  }
  return read;
}
