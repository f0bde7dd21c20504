import type { KafkaMessage } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { fromRecord, toRecord } from './kafka-codec.js';

/** The Kafka record codec, without a broker. */
const record = (key: Buffer | null, headers: Record<string, Buffer> = { 'event-id': Buffer.from('e1') }): KafkaMessage => ({
  key,
  value: Buffer.from(JSON.stringify({ type: 'AddressCheckRequested', data: {} })),
  headers,
  timestamp: '0',
  attributes: 0,
  offset: '12',
});

describe('fromRecord', () => {
  it('given a record of this service, then key, value and headers come back as published', () => {
    const published = toRecord({
      key: 'check-1',
      value: { type: 'AddressCheckRequested', data: {} },
      headers: { 'event-id': 'e1' },
      notBefore: 5,
    });
    expect(published.key).toBe('check-1');
    const { message, notBefore } = fromRecord(
      'events.check',
      1,
      record(Buffer.from('check-1'), { 'event-id': Buffer.from('e1'), 'x-not-before': Buffer.from('5') }),
    );
    expect(message).toMatchObject({
      topic: 'events.check',
      partition: 1,
      offset: 12n,
      key: 'check-1',
      value: { type: 'AddressCheckRequested' },
      headers: { 'event-id': 'e1' },
    });
    expect(notBefore).toBe(5);
  });

  it('given a record without a key, then it is refused (dead-lettered by the consumer), not read as stream ""', () => {
    expect(() => fromRecord('events.check', 1, record(null))).toThrow('record events.check[1]@12 has no key');
  });
});
