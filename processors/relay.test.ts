import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsumedMessage, MessageBus } from '../domain/ports/message-bus.port.js';
import { openLmdbEventStore, type LmdbEventStore } from '../infra/embedded/lmdb-event-store.js';
import { openLogMessageBus } from '../infra/embedded/log-bus/log-message-bus.js';
import { createRelay } from './relay.js';
import { topicOfFamily } from './topics.js';

let dir: string;
let store: LmdbEventStore;
/** The bus on a log of its own (as Kafka is outside the event store): what the relay copies lands there. */
let busStore: LmdbEventStore;
let bus: MessageBus;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-'));
  store = await openLmdbEventStore(join(dir, 'log'), { fsync: false });
  busStore = await openLmdbEventStore(join(dir, 'bus'), { fsync: false });
  bus = openLogMessageBus({ store: busStore, checkpoints: busStore.checkpoints });
});
afterEach(async () => {
  await bus.close();
  await busStore.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const event = (type: string, n: number) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type,
  data: { n },
  metadata: { correlationId: 'relay-test', occurredAt: '2026-11-27T00:00:00.000Z', schemaVersion: 1 },
});

async function consumed(topic: string): Promise<ConsumedMessage[]> {
  const seen: ConsumedMessage[] = [];
  const consumer = await bus.consume({ group: `read-${topic}`, topics: [topic], handle: async (batch) => void seen.push(...batch) });
  await consumer.whenCaughtUp();
  await consumer.stop();
  return seen;
}

describe('relay', () => {
  it('puts every family on the bus, each event with its id and revision', async () => {
    await store.append('check-1', [event('CheckRequested', 1)], { expected: 'no_stream' });
    await store.append('ledger-u', [event('Charged', 2), event('Charged', 3)], { expected: 'no_stream' });
    const relay = createRelay({ store, bus, checkpoints: store.checkpoints });
    await relay.start();
    await relay.whenCaughtUp();
    await relay.stop();
    expect((await consumed(topicOfFamily('check'))).map((m) => m.headers['event-type'])).toEqual(['CheckRequested']);
    expect((await consumed(topicOfFamily('ledger'))).map((m) => m.headers['stream-revision'])).toEqual(['0', '1']);
  });
});
