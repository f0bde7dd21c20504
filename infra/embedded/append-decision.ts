import { type EventData, type ExpectedRevision, NO_STREAM_REVISION, type Revision } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';

/** What the append rule needs to know about one stream. */
export interface StreamView {
  readonly revision: Revision;
  idAt(revision: Revision): string | undefined;
  /** Latest revision holding this event id. */
  revisionOfId(id: string): Revision | undefined;
}

export type AppendDecision =
  | { readonly kind: 'write' }
  /** An idempotent retry: the events are already stored, the last of them at `lastRevision`. */
  | { readonly kind: 'duplicate'; readonly lastRevision: Revision };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EXPECTED_KINDS: readonly unknown[] = ['any', 'no_stream', 'stream_exists'];

/** Rejects what EventStoreDB would reject before looking at the stream. */
export function validateAppend(stream: string, events: readonly EventData[], expected: ExpectedRevision): void {
  if (typeof stream !== 'string' || stream.length === 0) throw fail('bad_request', 'stream name must be a non-empty string');
  if (events.length === 0) throw fail('bad_request', `append to ${stream} has no events`, { stream });
  if (typeof expected === 'bigint' ? expected < NO_STREAM_REVISION : !EXPECTED_KINDS.includes(expected)) {
    throw fail('bad_request', `invalid expected revision ${String(expected)}`, { stream });
  }
  for (const event of events) {
    if (typeof event.id !== 'string' || !UUID.test(event.id)) {
      throw fail('bad_request', `event id ${String(event.id)} is not a UUID`, { stream });
    }
    if (typeof event.type !== 'string' || event.type.length === 0) {
      throw fail('bad_request', 'event type must be a non-empty string', { stream });
    }
    if (event.type.startsWith('$')) {
      throw fail('bad_request', `event type ${event.type} is reserved: types starting with $ belong to the store`, {
        stream,
        type: event.type,
      });
    }
    if (typeof event.metadata !== 'object' || event.metadata === null) {
      throw fail('bad_request', 'event metadata must be an object', { stream });
    }
  }
}

/**
 * EventStoreDB's optimistic concurrency and idempotence rule (docs/ARCHITECTURE.md#the-event-stores-append-rule):
 * expected == current writes; expected > current conflicts; expected < current is a retry that succeeds
 * without writing only if every id sits exactly at the revisions after `expected`. 'any' (and
 * 'stream_exists' once the stream exists) treats the append as a retry when its first id is already in the
 * stream, and then needs all of them there. -1n is the same as 'no_stream'.
 */
export function decideAppend(stream: string, view: StreamView, ids: readonly string[], expected: ExpectedRevision): AppendDecision {
  const current = view.revision;
  const conflict = () =>
    fail('wrong_expected_version', `stream ${stream}: expected revision ${String(expected)}, actual ${current}`, {
      stream,
      expected,
      actual: current,
    });

  if (expected === 'any' || expected === 'stream_exists') {
    if (expected === 'stream_exists' && current === NO_STREAM_REVISION) throw conflict();
    const revisions = ids.map((id) => view.revisionOfId(id));
    if (revisions[0] === undefined) return { kind: 'write' };
    const last = revisions[revisions.length - 1];
    if (last === undefined || revisions.includes(undefined)) throw conflict();
    return { kind: 'duplicate', lastRevision: last };
  }

  const expectedRevision = expected === 'no_stream' ? NO_STREAM_REVISION : expected;
  if (expectedRevision === current) return { kind: 'write' };
  if (expectedRevision > current) throw conflict();
  const alreadyThere = ids.every((id, i) => view.idAt(expectedRevision + 1n + BigInt(i)) === id);
  if (!alreadyThere) throw conflict();
  return { kind: 'duplicate', lastRevision: expectedRevision + BigInt(ids.length) };
}
