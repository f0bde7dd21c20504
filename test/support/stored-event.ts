import type { RecordedEvent } from '../../domain/ports/event-store.port.js';

/**
 * An event as the store hands it back, written at `schemaVersion` (1 unless said): what the registry's
 * upcasters are tested on. The stream names the event's family; the rest is made up.
 */
export function storedEvent(
  type: string,
  streamId: string,
  data: unknown,
  {
    schemaVersion = 1,
    occurredAt = '2026-11-20T10:00:00.000Z',
    revision = 1n,
  }: { schemaVersion?: number; occurredAt?: string; revision?: bigint } = {},
): RecordedEvent {
  return {
    id: 'e1',
    type,
    data,
    metadata: { correlationId: 'c', occurredAt, schemaVersion },
    streamId,
    revision,
    position: { commit: revision, prepare: revision },
    created: new Date(0),
  };
}
