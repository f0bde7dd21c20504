import { eventRegistry } from '../domain/events/registry.js';
import { sameSnapshot } from '../domain/ledger/ledger-period.js';
import { ledgerDecider, snapshotOf, type LedgerState } from '../domain/ledger/ledger.decider.js';
import { ledgerStream, type LedgerSnapshot } from '../domain/ledger/ledger.events.js';
import type { EventStore, RecordedEvent } from '../domain/ports/event-store.port.js';

/** One period of a user's ledger as the auditor reads it from the log. */
export interface LedgerPeriodRead {
  readonly stream: string;
  readonly events: readonly RecordedEvent[];
  /** The period's state replayed from its own events (its opening included). */
  readonly state: LedgerState;
  /** Where this period does not continue the previous one, or does not close as its events say. */
  readonly breaks: readonly string[];
  /** Closed, but the successor it names holds nothing yet (a crash between close and open): it opens on the next command. */
  readonly successorPending: string | null;
}

const snapshotText = (s: LedgerSnapshot) =>
  `balance ${s.balanceMicros}, plan ${s.plan.kind}, cap ${s.monthlyCapMicros}, quota period ${s.periodStart} (${s.periodUnitsUsed} units, ${s.periodSpentMicros} spent)`;

/**
 * Walks a user's chain of ledger periods from its root (`ledger-{userId}`, which for a data directory
 * written before periods is the whole legacy stream) through each PeriodClosed.next. Each period is
 * replayed alone; its opening must equal the previous period's recorded closing, and its recorded
 * closing must equal what its events add up to. One period is held in memory at a time.
 */
export async function* walkLedgerChain(store: EventStore, userId: string): AsyncGenerator<LedgerPeriodRead> {
  let stream: string | null = ledgerStream(userId);
  let previous: { stream: string; closing: LedgerSnapshot } | null = null;
  const seen = new Set<string>();
  while (stream !== null && !seen.has(stream)) {
    seen.add(stream);
    const events: RecordedEvent[] = [];
    for await (const recorded of store.read(stream)) events.push(recorded);
    const breaks: string[] = [];
    if (previous && events.length === 0) {
      yield { stream, events, state: ledgerDecider.initialState(), breaks, successorPending: null };
      return;
    }
    let state = ledgerDecider.initialState();
    let beforeClose: LedgerSnapshot | null = null;
    for (const [index, recorded] of events.entries()) {
      const event = ledgerDecider.parse(eventRegistry.upcast({ type: recorded.type, data: recorded.data, metadata: recorded.metadata }));
      if (!event) continue;
      if (event.type === 'PeriodOpened') {
        if (index !== 0) breaks.push(`${stream}: PeriodOpened at revision ${recorded.revision}, not first`);
        if (!previous) breaks.push(`${stream}: opens from ${event.data.previous}, but it is the root of the chain`);
        else if (event.data.previous !== previous.stream)
          breaks.push(`${stream}: opens from ${event.data.previous}, but ${previous.stream} precedes it`);
        else if (!sameSnapshot(event.data.opening, previous.closing)) {
          breaks.push(
            `${stream}: opens with ${snapshotText(event.data.opening)}, but ${previous.stream} closed with ${snapshotText(previous.closing)}`,
          );
        }
      }
      if (event.type === 'PeriodClosed') beforeClose = snapshotOf(state);
      state = ledgerDecider.evolve(state, event);
      if (event.type === 'PeriodClosed' && index !== events.length - 1) breaks.push(`${stream}: events after its PeriodClosed`);
    }
    if (previous && !state.opened) breaks.push(`${stream}: follows ${previous.stream} but has no PeriodOpened`);
    if (state.closed && beforeClose && !sameSnapshot(state.closed.closing, beforeClose)) {
      breaks.push(`${stream}: closed with ${snapshotText(state.closed.closing)}, but its events add up to ${snapshotText(beforeClose)}`);
    }
    let successorPending: string | null = null;
    if (state.closed && (await store.streamRevision(state.closed.next)) === -1n) successorPending = state.closed.next;
    yield { stream, events, state, breaks, successorPending };
    previous = state.closed ? { stream, closing: state.closed.closing } : null;
    stream = successorPending === null ? (state.closed?.next ?? null) : null;
  }
}
