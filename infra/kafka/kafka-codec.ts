import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { BusMessage, ConsumedMessage, MessageHeaders } from '../../domain/ports/message-bus.port.js';

/**
 * BusMessage ⇄ Kafka record. The value is JSON; `notBefore` travels in a header of its own, which is
 * taken off again on the way out so handlers see exactly the headers that were published.
 */
export const NOT_BEFORE_HEADER = 'x-not-before';

export function toRecord(message: BusMessage): Message {
  const headers: Record<string, string> = { ...message.headers };
  if (message.notBefore !== undefined) headers[NOT_BEFORE_HEADER] = String(message.notBefore);
  return { key: message.key, value: JSON.stringify(message.value ?? null), headers };
}

function headerText(value: IHeaders[string]): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return headerText(value[value.length - 1]);
  return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
}

export interface DecodedRecord {
  readonly message: Omit<ConsumedMessage, 'attempt'>;
  readonly notBefore: number | undefined;
}

/** Decoded afresh for every delivery, so a handler that mutated a message does not see its own changes. */
export function fromRecord(topic: string, partition: number, record: KafkaMessage): DecodedRecord {
  const headers: Record<string, string> = {};
  let notBefore: number | undefined;
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    if (name === NOT_BEFORE_HEADER) notBefore = Number(headerText(value));
    else headers[name] = headerText(value);
  }
  // Every message of this service has a key (its stream): one without is not ours, and the consumer dead-letters it.
  if (record.key === null) throw new Error(`record ${topic}[${partition}]@${record.offset} has no key`);
  const text = record.value?.toString('utf8');
  const message = {
    topic,
    partition,
    offset: BigInt(record.offset),
    key: record.key.toString('utf8'),
    value: text === undefined ? null : (JSON.parse(text) as unknown),
    headers: headers as MessageHeaders,
    ...(notBefore === undefined || Number.isNaN(notBefore) ? {} : { notBefore }),
  };
  return { message, notBefore: message.notBefore };
}
