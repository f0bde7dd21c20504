import type { Position } from '../domain/ports/event-store.port.js';
import { HEADER } from '../domain/ports/message-bus.port.js';
import type { BusEvent } from './processor.js';

/** The `$all` position a relayed event carries in its headers; null for a bus-only message. */
export function positionOf(event: Pick<BusEvent, 'message'>): Position | null {
  const commit = event.message.headers[HEADER.commit];
  const prepare = event.message.headers[HEADER.prepare];
  return commit === undefined || prepare === undefined ? null : { commit: BigInt(commit), prepare: BigInt(prepare) };
}
