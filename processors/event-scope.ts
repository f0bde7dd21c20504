import type { Correlation } from '../domain/ports/correlation.port.js';
import type { BusEvent } from './processor.js';

const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/**
 * The correlation of what a processor does about `event`: the event's correlationId, caused by the event
 * itself (by the event's own causation for a bus-only message without an id, such as a webhook retry).
 * Null when the message carries neither.
 */
export function correlationOf(event: Pick<BusEvent, 'id' | 'metadata'>): Correlation | null {
  const correlationId = nonEmpty(event.metadata.correlationId) ?? nonEmpty(event.id);
  const causationId = nonEmpty(event.id) ?? nonEmpty(event.metadata.causationId);
  if (!correlationId) return null;
  return causationId ? { correlationId, causationId } : { correlationId };
}

/** Runs `work` as the consequence of `event` (see BusEvent.scope); plain `work()` outside a runner. */
export function asConsequenceOf<T>(event: BusEvent, work: () => Promise<T>): Promise<T> {
  return event.scope ? event.scope(work) : work();
}

/** The first event per key, in batch order: one piece of work per key (a check, a job), scoped to that event. */
export function firstPerKey(events: readonly BusEvent[], keyOf: (event: BusEvent) => string | null): Map<string, BusEvent> {
  const first = new Map<string, BusEvent>();
  for (const event of events) {
    const key = keyOf(event);
    if (key !== null && !first.has(key)) first.set(key, event);
  }
  return first;
}
