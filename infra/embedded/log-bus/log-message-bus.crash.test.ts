import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConsumedMessage } from '../../../domain/ports/message-bus.port.js';
import { eventually } from '../../../test/contracts/eventually.js';
import { embeddedTopology } from '../../topology/embedded.js';
import { openLogMessageBus } from './log-message-bus.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const collect = (seen: ConsumedMessage[]) => async (batch: readonly ConsumedMessage[]) => void seen.push(...batch);

describe('log message bus after kill -9', () => {
  it('keeps every acknowledged message, and the group gets again only what it had not handled', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'log-bus-crash-'));
    dirs.push(dir);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./log-message-bus.crash-child.ts', import.meta.url)), dir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await eventually(() => expect(output).toMatch(/^published 300$/m), 30_000);
    child.kill('SIGKILL');
    await exited;

    const lines = output.split('\n');
    const published = lines.filter((l) => l.startsWith('published ')).map((l) => Number(l.split(' ')[1]));
    const handledBefore = new Set(lines.filter((l) => l.startsWith('handled ')).map((l) => Number(l.split(' ')[1])));
    const settings = { DATA_DIR: dir, SVC_FSYNC: '1' as const, SVC_GRAPH_SUPER_NODE_BOUND: 1000 };
    const store = await embeddedTopology.eventStore(settings);
    const checkpoints = await embeddedTopology.checkpoints(settings);
    const bus = openLogMessageBus({ store, checkpoints });
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
    // The group resumes after its one checkpoint: what comes again is the tail of the log from some message
    // on (published one at a time, so log order is value order), and everything before it had been handled.
    const from = Math.min(...resumed.map((m) => m.value as number), values.length);
    expect(new Set(resumed.map((m) => m.value))).toEqual(new Set(values.filter((v) => v >= from)));
    for (const value of values.filter((v) => v < from)) expect(handledBefore.has(value)).toBe(true);
    await bus.close();
    await checkpoints.close();
    await store.close();
  });
});
