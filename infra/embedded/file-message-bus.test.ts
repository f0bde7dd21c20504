import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConsumedMessage } from '../../domain/ports/message-bus.port.js';
import { eventually } from '../../test/contracts/eventually.js';
import { messageBusContract } from '../../test/contracts/message-bus.contract.js';
import { openFileMessageBus } from './file-message-bus.js';
import { partitionFor } from './murmur2-partitioner.js';

const dirs: string[] = [];
const tempDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'bus-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

messageBusContract('embedded file bus', async () => openFileMessageBus(await tempDir()));

const collect = (seen: ConsumedMessage[]) => async (batch: readonly ConsumedMessage[]) => void seen.push(...batch);

describe('file message bus', () => {
  it('keeps messages and committed offsets across a restart on the same directory', async () => {
    const dir = await tempDir();
    const before = await openFileMessageBus(dir, { partitions: 3 });
    await before.publish(
      'orders',
      ['a', 'b', 'c', 'd'].map((key, i) => ({ key, value: i, headers: {} })),
    );
    const seen: ConsumedMessage[] = [];
    const consumer = await before.consume({ group: 'billing', topics: ['orders'], handle: collect(seen) });
    await consumer.whenCaughtUp();
    await before.close();

    const after = await openFileMessageBus(dir, { partitions: 8 });
    await after.publish('orders', [{ key: 'e', value: 4, headers: {} }]);
    const resumed: ConsumedMessage[] = [];
    const again = await after.consume({ group: 'billing', topics: ['orders'], handle: collect(resumed) });
    const everything: ConsumedMessage[] = [];
    const fresh = await after.consume({ group: 'audit', topics: ['orders'], handle: collect(everything) });
    await Promise.all([again.whenCaughtUp(), fresh.whenCaughtUp()]);
    expect(resumed.map((m) => m.value)).toEqual([4]);
    expect(everything.map((m) => m.value).sort()).toEqual([0, 1, 2, 3, 4]);
    // The partition count is the topic's, fixed at creation, so keys keep their partitions.
    expect(everything.every((m) => m.partition === partitionFor(m.key, 3))).toBe(true);
    await after.close();
  });

  it('places keys on the partitions Kafka would (murmur2)', () => {
    expect([partitionFor('21', 1000), partitionFor('foobar', 1000)]).toEqual([
      (-973932308 & 0x7fffffff) % 1000,
      (-790332482 & 0x7fffffff) % 1000,
    ]);
  });

  it('numbers messages per partition from 0, as Kafka offsets', async () => {
    const bus = await openFileMessageBus(await tempDir(), { partitions: 2 });
    await bus.publish(
      't',
      Array.from({ length: 20 }, (_, i) => ({ key: `k${i}`, value: i, headers: {} })),
    );
    const seen: ConsumedMessage[] = [];
    await (await bus.consume({ group: 'g', topics: ['t'], handle: collect(seen) })).whenCaughtUp();
    for (const p of [0, 1]) {
      const offsets = seen.filter((m) => m.partition === p).map((m) => m.offset);
      expect(offsets).toEqual(offsets.map((_, i) => BigInt(i)));
    }
    await bus.close();
  });

  it('holds back only the partition whose head is not due yet', async () => {
    const bus = await openFileMessageBus(await tempDir(), { partitions: 2 });
    const late = 'k0';
    const other = ['k1', 'k2', 'k3', 'k4'].find((k) => partitionFor(k, 2) !== partitionFor(late, 2))!;
    const notBefore = Date.now() + 400;
    await bus.publish('t', [
      { key: late, value: 'late', headers: {}, notBefore },
      { key: late, value: 'behind', headers: {} },
      { key: other, value: 'free', headers: {} },
    ]);
    const seen: ConsumedMessage[] = [];
    await bus.consume({ group: 'g', topics: ['t'], handle: collect(seen) });
    await eventually(() => expect(seen.map((m) => m.value)).toEqual(['free']));
    await eventually(() => expect(seen.map((m) => m.value)).toEqual(['free', 'late', 'behind']));
    expect(Date.now()).toBeGreaterThanOrEqual(notBefore);
    await bus.close();
  });

  it('hands live messages over within a millisecond or so of their publish', async () => {
    const bus = await openFileMessageBus(await tempDir(), { partitions: 1 });
    let handled: () => void = () => undefined;
    await bus.consume({ group: 'g', topics: ['t'], handle: async () => handled() });
    const lags: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const received = new Promise<number>((resolve) => (handled = () => resolve(performance.now())));
      const started = performance.now();
      await bus.publish('t', [{ key: 'k', value: i, headers: {} }]);
      const durable = performance.now();
      // Negative when the handler ran before publish's own continuation: delivery follows the fsync at once.
      lags.push((await received) - durable);
      if (i === 0) console.info(`first publish (fsync) took ${(durable - started).toFixed(3)} ms`);
    }
    lags.sort((a, b) => a - b);
    console.info(`publish resolved → handle: median ${lags[100]!.toFixed(3)} ms, p99 ${lags[198]!.toFixed(3)} ms`);
    expect(lags[100]).toBeLessThan(1);
    await bus.close();
  });

  it('allows one consumer per group at a time and refuses use after close', async () => {
    const bus = await openFileMessageBus(await tempDir());
    const consumer = await bus.consume({ group: 'g', topics: ['t'], handle: async () => undefined });
    await expect(bus.consume({ group: 'g', topics: ['t'], handle: async () => undefined })).rejects.toMatchObject({
      code: 'invalid_state',
    });
    await consumer.stop();
    await (await bus.consume({ group: 'g', topics: ['t'], handle: async () => undefined })).stop();
    await expect(bus.publish('bad/topic', [{ key: 'k', value: 1, headers: {} }])).rejects.toMatchObject({ code: 'invalid_state' });
    await bus.close();
    await expect(bus.publish('t', [{ key: 'k', value: 1, headers: {} }])).rejects.toMatchObject({ code: 'store_closed' });
  });
});

describe('file message bus after kill -9', () => {
  it('keeps every acknowledged message and resumes the group where it had committed', async () => {
    const dir = await tempDir();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./file-message-bus.crash-child.ts', import.meta.url)), dir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await eventually(() => expect(output).toMatch(/^published 300$/m), 15_000);
    child.kill('SIGKILL');
    await exited;

    const lines = output.split('\n');
    const published = lines.filter((l) => l.startsWith('published ')).map((l) => Number(l.split(' ')[1]));
    const handledBefore = new Set(lines.filter((l) => l.startsWith('handled ')).map((l) => l.split(' ').slice(1, 3).join('/')));
    const bus = await openFileMessageBus(dir, { partitions: 2 });
    const all: ConsumedMessage[] = [];
    const resumed: ConsumedMessage[] = [];
    const audit = await bus.consume({ group: 'audit', topics: ['t'], handle: collect(all) });
    const again = await bus.consume({ group: 'g', topics: ['t'], handle: collect(resumed) });
    await Promise.all([audit.whenCaughtUp(), again.whenCaughtUp()]);

    const values = all.map((m) => m.value as number);
    expect(values.length).toBeGreaterThanOrEqual(published.length);
    expect(new Set(values)).toEqual(new Set([...Array(values.length).keys()]));
    for (const key of ['k0', 'k1', 'k2', 'k3', 'k4']) {
      const ofKey = all.filter((m) => m.key === key).map((m) => m.value as number);
      expect(ofKey).toEqual([...ofKey].sort((a, b) => a - b));
    }
    // Per partition the group resumes at one offset: everything before it had been handed over already.
    for (const partition of [0, 1]) {
      const offsets = resumed.filter((m) => m.partition === partition).map((m) => Number(m.offset));
      const end = all.filter((m) => m.partition === partition).length;
      const from = offsets[0] ?? end;
      expect(offsets).toEqual(Array.from({ length: end - from }, (_, i) => from + i));
      for (let offset = 0; offset < from; offset += 1) expect(handledBefore.has(`${partition}/${offset}`)).toBe(true);
    }
    await bus.close();
  });
});
