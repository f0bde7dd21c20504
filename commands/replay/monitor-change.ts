import { eventRegistry, type EventDataOf } from '../../domain/events/registry.js';
import { monitorStream } from '../../domain/monitors/monitor.events.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { Network } from '../../domain/shared/network.js';

type Changed = EventDataOf<'MonitorVerdictChanged'>;

/** One monitor change as its stream recorded it, with the monitor it is about. */
export interface MonitorChange {
  readonly verdictId: string;
  readonly monitorId: string;
  readonly userId: string;
  readonly address: string;
  readonly network: Network;
  readonly change: Changed;
}

/** A monitor change's verdict id is `{monitor_id}:{change key}` (its receipt's verdictId): null for any other id. */
export function monitorChangeIdParts(verdictId: string): { monitorId: string; changeKey: string } | null {
  const colon = verdictId.indexOf(':');
  if (colon <= 0 || colon === verdictId.length - 1) return null;
  return { monitorId: verdictId.slice(0, colon), changeKey: verdictId.slice(colon + 1) };
}

/**
 * The monitor change a verdict id names, read from the monitor's own stream: null when there is none, or
 * when the monitor is not `userId`'s (someone else's verdict is not found, like a missing one).
 */
export async function findMonitorChange(log: Pick<EventStore, 'read'>, userId: string, verdictId: string): Promise<MonitorChange | null> {
  const parts = monitorChangeIdParts(verdictId);
  if (!parts) return null;
  let created: EventDataOf<'MonitorCreated'> | null = null;
  for await (const event of log.read(monitorStream(parts.monitorId))) {
    if (event.type !== 'MonitorCreated' && (event.data as { changeKey?: unknown }).changeKey !== parts.changeKey) continue;
    // Through the registry: an event recorded by older code is upcast to the domain facts it states.
    const parsed = eventRegistry.parse(event);
    if (parsed?.type === 'MonitorCreated') {
      created = parsed.data;
      if (created.userId !== userId) return null;
      continue;
    }
    if (parsed?.type !== 'MonitorVerdictChanged') continue;
    if (!created) return null;
    const change = parsed.data;
    return { verdictId, monitorId: parts.monitorId, userId, address: created.address, network: created.network, change };
  }
  return null;
}
