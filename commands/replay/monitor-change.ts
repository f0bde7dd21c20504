import { monitorEventSchemas, monitorStream } from '../../domain/monitors/monitor.events.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { Network } from '../../domain/shared/network.js';
import type { z } from 'zod';

type Changed = z.infer<(typeof monitorEventSchemas)['MonitorVerdictChanged']>;

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
  let created: z.infer<(typeof monitorEventSchemas)['MonitorCreated']> | null = null;
  for await (const event of log.read(monitorStream(parts.monitorId))) {
    if (event.type === 'MonitorCreated') {
      created = monitorEventSchemas.MonitorCreated.parse(event.data);
      if (created.userId !== userId) return null;
      continue;
    }
    if (event.type !== 'MonitorVerdictChanged' || (event.data as { changeKey?: unknown }).changeKey !== parts.changeKey) continue;
    if (!created) return null;
    const change = monitorEventSchemas.MonitorVerdictChanged.parse(event.data);
    return { verdictId, monitorId: parts.monitorId, userId, address: created.address, network: created.network, change };
  }
  return null;
}
