import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../../../domain/ports/event-store.port.js';
import type { ConsumedMessage, MessageBus } from '../../../domain/ports/message-bus.port.js';
import { HEADER } from '../../../domain/ports/message-bus.port.js';
import type { CheckpointStore } from '../../../domain/ports/read-store.port.js';
import { messageBusContract } from '../../../test/contracts/message-bus.contract.js';
import { embeddedTopology } from '../../topology/embedded.js';
import { openLogMessageBus } from './log-message-bus.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Opened {
  readonly store: EventStore;
  readonly checkpoints: CheckpointStore;
  readonly bus: MessageBus;
  close(): Promise<void>;
}

/** The bus on the embedded event store and checkpoint store, as the service opens them, in `dir`. */
async function openIn(dir?: string): Promise<Opened & { dir: string }> {
  const at = dir ?? (await mkdtemp(join(tmpdir(), 'log-bus-')));
  if (dir === undefined) dirs.push(at);
  const settings = { DATA_DIR: at, SVC_FSYNC: '0' as const, SVC_GRAPH_SUPER_NODE_BOUND: 1000 };
  const store = await embeddedTopology.eventStore(settings);
  const checkpoints = await embeddedTopology.checkpoints(settings);
  const bus = openLogMessageBus({ store, checkpoints });
  return {
    dir: at,
    store,
    checkpoints,
    bus,
    async close() {
      await bus.close();
      await checkpoints.close();
      await store.close();
    },
  };
}

messageBusContract('embedded log bus', async () => {
  const opened = await openIn();
  // The contract closes the bus; the stores under it go with it.
  return { ...opened.bus, close: () => opened.close() };
});

const collect = (seen: ConsumedMessage[]) => async (batch: readonly ConsumedMessage[]) => void seen.push(...batch);
const metadata = { correlationId: 'c-1', occurredAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1 };

describe('log message bus', () => {
  it("hands a store event to its family's topic with the relay's headers, and keeps no copy of it", async () => {
    const { store, bus, close } = await openIn();
    await store.append('check-1', [{ id: '00000000-0000-4000-8000-000000000001', type: 'CheckRequested', data: { n: 1 }, metadata }], {
      expected: 'no_stream',
    });
    const seen: ConsumedMessage[] = [];
    const consumer = await bus.consume({ group: 'g', topics: ['events.check'], handle: collect(seen) });
    await consumer.whenCaughtUp();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ topic: 'events.check', key: 'check-1', value: { type: 'CheckRequested', data: { n: 1 } } });
    expect(seen[0]!.headers).toMatchObject({ [HEADER.eventId]: '00000000-0000-4000-8000-000000000001', [HEADER.revision]: '0' });
    const log = [];
    for await (const event of store.readAll()) log.push(event.streamId);
    expect(log).toEqual(['check-1']);
    await close();
  });

  it('keeps published messages and the group checkpoint across a restart on the same directory', async () => {
    const before = await openIn();
    await before.bus.publish(
      'orders',
      ['a', 'b', 'c', 'd'].map((key, i) => ({ key, value: i, headers: {} })),
    );
    const seen: ConsumedMessage[] = [];
    await (await before.bus.consume({ group: 'billing', topics: ['orders'], handle: collect(seen) })).whenCaughtUp();
    await before.close();

    const after = await openIn(before.dir);
    await after.bus.publish('orders', [{ key: 'e', value: 4, headers: {} }]);
    const resumed: ConsumedMessage[] = [];
    const again = await after.bus.consume({ group: 'billing', topics: ['orders'], handle: collect(resumed) });
    const everything: ConsumedMessage[] = [];
    const fresh = await after.bus.consume({ group: 'audit', topics: ['orders'], handle: collect(everything) });
    await Promise.all([again.whenCaughtUp(), fresh.whenCaughtUp()]);
    expect(seen.map((m) => m.value).sort()).toEqual([0, 1, 2, 3]);
    expect(resumed.map((m) => m.value)).toEqual([4]);
    expect(everything.map((m) => m.value).sort()).toEqual([0, 1, 2, 3, 4]);
    await after.close();
  });

  it("resumes each topic of a group from the group's one checkpoint an earlier version kept (bus:<group>)", async () => {
    const { store, checkpoints, bus, close } = await openIn();
    await bus.publish('a', [{ key: 'k', value: 'a-old', headers: {} }]);
    await bus.publish('b', [{ key: 'k', value: 'b-old', headers: {} }]);
    const head = await store.headPosition();
    await checkpoints.store('bus:g', head!, null);
    await bus.publish('a', [{ key: 'k', value: 'a-new', headers: {} }]);
    await bus.publish('b', [{ key: 'k', value: 'b-new', headers: {} }]);
    const seen: ConsumedMessage[] = [];
    await (await bus.consume({ group: 'g', topics: ['a', 'b'], handle: collect(seen) })).whenCaughtUp();
    expect(seen.map((m) => m.value).sort()).toEqual(['a-new', 'b-new']);
    expect(await checkpoints.load('bus:g:a')).toEqual(await store.headPosition());
    await close();
  });

  it('commits past what it passed over behind a delayed message once that message is handled', async () => {
    const { store, checkpoints, bus, close } = await openIn();
    const notBefore = Date.now() + 300;
    await bus.publish('later', [{ key: 'k', value: 'later', headers: {}, notBefore }]);
    for (let i = 0; i < 20; i += 1) await bus.publish('other', [{ key: 'k', value: i, headers: {} }]);
    const seen: ConsumedMessage[] = [];
    await (await bus.consume({ group: 'g', topics: ['later'], handle: collect(seen) })).whenCaughtUp();
    expect(Date.now()).toBeGreaterThanOrEqual(notBefore);
    expect(seen.map((m) => m.value)).toEqual(['later']);
    expect(await checkpoints.load('bus:g:later')).toEqual(await store.headPosition());
    await close();
  });

  it('a delayed message holds back only its own topic', async () => {
    const { bus, close } = await openIn();
    await bus.publish('later', [{ key: 'k', value: 'later', headers: {}, notBefore: Date.now() + 60_000 }]);
    await bus.publish('now', [{ key: 'k', value: 'now', headers: {} }]);
    const seen: ConsumedMessage[] = [];
    await bus.consume({ group: 'g', topics: ['later', 'now'], handle: collect(seen) });
    const deadline = Date.now() + 5000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.map((m) => m.value)).toEqual(['now']);
    expect(await bus.lag('g', ['later', 'now'])).toEqual([
      { topic: 'later', messages: 1 },
      { topic: 'now', messages: 0 },
    ]);
    await close();
  });

  it('allows one consumer per group at a time and refuses use after close', async () => {
    const { bus, close } = await openIn();
    const consumer = await bus.consume({ group: 'g', topics: ['t'], handle: async () => undefined });
    await expect(bus.consume({ group: 'g', topics: ['t'], handle: async () => undefined })).rejects.toMatchObject({
      code: 'invalid_state',
    });
    await consumer.stop();
    await (await bus.consume({ group: 'g', topics: ['t'], handle: async () => undefined })).stop();
    await expect(bus.publish('bad/topic', [{ key: 'k', value: 1, headers: {} }])).rejects.toMatchObject({ code: 'invalid_state' });
    await close();
    await expect(bus.publish('t', [{ key: 'k', value: 1, headers: {} }])).rejects.toMatchObject({ code: 'store_closed' });
  });
});
