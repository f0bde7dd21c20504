import { randomUUID } from 'node:crypto';
import type { EventData, RecordedEvent } from '../../../domain/ports/event-store.port.js';
import { HEADER, type BusMessage, type ConsumedMessage } from '../../../domain/ports/message-bus.port.js';
import { streamFamily } from '../../../domain/shared/streams.js';
import { toBusMessage } from '../../../processors/relay.js';
import { familyOfTopic, topicOfStream } from '../../../processors/topics.js';

/**
 * How the log bus keeps a message that has no store event behind it (a webhook retry, a dead letter, a chain
 * transfer batch): as an event of the `bus` family in the same log, on stream `bus-<topic>`, so that the log
 * is the only store. No read model registers its type, so projections pass over it.
 */
export const BUS_STREAMS = streamFamily('bus');
export const BUS_MESSAGE = 'BusMessage';

interface BusMessageData {
  readonly key: string;
  readonly value: unknown;
  readonly headers: BusMessage['headers'];
  readonly notBefore?: number;
}

export function busEventOf(message: BusMessage, now: Date): EventData<typeof BUS_MESSAGE, BusMessageData> {
  const data: BusMessageData = { key: message.key, value: message.value ?? null, headers: message.headers };
  const value = message.value as { metadata?: { correlationId?: unknown } } | null;
  const correlationId = typeof value?.metadata?.correlationId === 'string' ? value.metadata.correlationId : randomUUID();
  return {
    id: randomUUID(),
    type: BUS_MESSAGE,
    data: message.notBefore === undefined ? data : { ...data, notBefore: message.notBefore },
    metadata: { correlationId, occurredAt: now.toISOString(), schemaVersion: 1 },
  };
}

/** The topic an event of the log is delivered on: its own for a bus message, its family's for any other. */
export function topicOfEvent(event: Pick<RecordedEvent, 'streamId'>): string {
  return BUS_STREAMS.idOf(event.streamId) ?? topicOfStream(event.streamId);
}

/**
 * The stream prefixes whose events are on `topic` (topicOfEvent): `bus-<topic>` for the messages published
 * on it and, for a topic `events.F`, the streams of family F (every stream name is `F-<id>`, streams.ts).
 * A prefix may also let through streams of another topic (`bus-t.retry` for `t`): consumers check the topic.
 */
export function streamPrefixesOfTopic(topic: string): string[] {
  const family = familyOfTopic(topic);
  // A family never holds a `-`: no store event is on a topic `events.F` whose F does.
  const familyStreams = !family || family.includes('-') ? [] : [streamFamily(family).prefix];
  return [BUS_STREAMS.stream(topic), ...familyStreams];
}

/** The message a consumer is handed for an event: a bus message as published, a store event as the relay sends it. */
export function messageOfEvent(event: RecordedEvent): BusMessage {
  if (!BUS_STREAMS.owns(event.streamId) || event.type !== BUS_MESSAGE) return toBusMessage(event);
  const data = event.data as BusMessageData;
  const message = { key: data.key, value: data.value, headers: data.headers };
  return data.notBefore === undefined ? message : { ...message, notBefore: data.notBefore };
}

/** A message that failed `attempt` times, for the dead-letter topic: its own headers plus why and where from. */
export function deadLetterOf(message: ConsumedMessage, error: unknown): BusMessage {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const headers = {
    ...message.headers,
    [HEADER.error]: reason.slice(0, 2000),
    [HEADER.attempts]: String(message.attempt),
    [HEADER.originalTopic]: message.topic,
    [HEADER.originalPartition]: String(message.partition),
    [HEADER.originalOffset]: String(message.offset),
  };
  return { key: message.key, value: message.value, headers };
}
