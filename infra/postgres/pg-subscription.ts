import {
  matchesFilter,
  type Position,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type SubscriptionDelivery,
} from '../../domain/ports/event-store.port.js';
import { hasCode } from '../../domain/shared/errors.js';
import type { Wakeups } from './pg-wakeups.js';

/** What a subscription reads: settled heads and pages of `$all` (pg-event-store.ts). */
export interface SubscriptionSource {
  /** The head once everything committed before the call is visible (null: empty). */
  headPosition(): Promise<Position | null>;
  /** Up to `limit` events after `after` (exclusive) and at most `upTo` (inclusive). */
  page(after: Position | null, limit: number, upTo: Position): Promise<RecordedEvent[]>;
  /** Up to `limit` events after `after` that no running transaction precedes, and whether committed ones wait behind one. */
  live(after: Position | null, limit: number): Promise<{ events: RecordedEvent[]; unsettled: boolean }>;
  readonly wakeups: Wakeups;
}

const PAGE = 500;
/** While committed events wait behind a running transaction: poll from 2 ms, doubling, at most 50 ms apart. */
const UNSETTLED_MIN_MS = 2;
const UNSETTLED_MAX_MS = 50;
/** Idle: a wake-up (a local append, a NOTIFY) or this long, whichever first. */
const IDLE_POLL_MS = 1000;
/** The server unreachable: retry from the last delivered position, 100 ms doubling to 5 s apart. */
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5000;

/**
 * `subscribeToAll` on PostgreSQL: the backlog up to the settled head taken at subscribe time, `caughtUp`,
 * then live pages of what has become visible, woken by appends (Wakeups) and polled while an older
 * transaction holds newer events back. The cursor is the last event read (delivered or filtered out), so a
 * dropped connection resumes where it was and no event is delivered twice or skipped.
 */
export async function* subscribe(
  source: SubscriptionSource,
  options: SubscribeToAllOptions,
  stop: AbortSignal,
): AsyncIterable<SubscriptionDelivery> {
  const signal = options.signal ? AbortSignal.any([options.signal, stop]) : stop;
  try {
    yield* deliveries(source, options, signal);
  } catch (error) {
    // A read cut short by the abort (the store closing under it) is the end asked for.
    if (!signal.aborted) throw error;
  }
}

async function* deliveries(
  source: SubscriptionSource,
  options: SubscribeToAllOptions,
  signal: AbortSignal,
): AsyncIterable<SubscriptionDelivery> {
  if (signal.aborted) return;
  const retrying = retryUnavailable(signal);
  const head = await retrying(() => source.headPosition());
  let cursor: Position | null = options.from === 'start' ? null : options.from === 'end' ? head : options.from;
  if (head !== null && options.from !== 'end') {
    for (;;) {
      const events = await retrying(() => source.page(cursor, PAGE, head));
      for (const delivery of filtered(events, options.filter)) {
        if (signal.aborted) return;
        yield delivery;
      }
      cursor = events.at(-1)?.position ?? cursor;
      if (events.length < PAGE) break;
    }
  }
  if (signal.aborted) return;
  yield { kind: 'caughtUp', position: head };

  let backoff = UNSETTLED_MIN_MS;
  while (!signal.aborted) {
    const seen = source.wakeups.generation();
    const { events, unsettled } = await retrying(() => source.live(cursor, PAGE));
    for (const delivery of filtered(events, options.filter)) {
      if (signal.aborted) return;
      yield delivery;
    }
    cursor = events.at(-1)?.position ?? cursor;
    if (events.length === PAGE) continue;
    if (unsettled) {
      await sleep(backoff, signal);
      backoff = Math.min(backoff * 2, UNSETTLED_MAX_MS);
      continue;
    }
    backoff = UNSETTLED_MIN_MS;
    await source.wakeups.wait(seen, IDLE_POLL_MS, signal);
  }
}

/** A page's events the filter lets through, then a checkpoint at its last event if the filter passed over it. */
function* filtered(events: readonly RecordedEvent[], filter: SubscribeToAllOptions['filter']): Generator<SubscriptionDelivery> {
  for (const event of events) if (matchesFilter(event, filter)) yield { kind: 'event', event };
  const last = events.at(-1);
  if (filter && last !== undefined && !matchesFilter(last, filter)) yield { kind: 'checkpoint', position: last.position };
}

/** Runs a read until it succeeds, waiting out an unreachable server; other errors end the subscription. */
function retryUnavailable(signal: AbortSignal) {
  return async <T>(read: () => Promise<T>): Promise<T> => {
    let delay = RETRY_MIN_MS;
    for (;;) {
      try {
        return await read();
      } catch (error) {
        if (!hasCode(error, 'backend_unavailable') || signal.aborted) throw error;
        await sleep(delay, signal);
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    }
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
