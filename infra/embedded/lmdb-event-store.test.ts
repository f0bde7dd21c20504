import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EventData, EventStore, RecordedEvent, SubscriptionDelivery } from '../../domain/ports/event-store.port.js';
import { eventStoreContract } from '../../test/contracts/event-store.contract.js';
import { open as openLmdb } from 'lmdb';
import { type LmdbEventStore, openLmdbEventStore } from './lmdb-event-store.js';
import { ANY_RETRY_WINDOW } from './lmdb-stream-index.js';
import { STORE_FILE, STORE_FORMAT } from './store-environment.js';

const dirs: string[] = [];
const newDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'lmdb-event-store-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

eventStoreContract('lmdb event store', async () => openLmdbEventStore(await newDir()));

describe('lmdb event store', () => {
  const opened: EventStore[] = [];
  const open = async (dir: string) => {
    const store = await openLmdbEventStore(dir);
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  it('keeps every event, with created, metadata and positions, across close and reopen', async () => {
    const dir = await newDir();
    const store = await open(dir);
    await store.append('order-1', [event('Placed', { total: 12 }), event('Paid', { by: 'card' })], { expected: 'no_stream' });
    const caused = event('Shipped', { to: ['a', 'b'] });
    await store.append('order-2', [{ ...caused, metadata: { ...caused.metadata, causationId: randomUUID() } }], {
      expected: 'no_stream',
    });
    await store.append('order-1', [event('Closed', null)], { expected: 1n });
    const before = await collect(store.readAll());
    await store.close();

    const reopened = await open(dir);
    expect(await collect(reopened.readAll())).toEqual(before);
    expect(await reopened.streamRevision('order-1')).toBe(2n);
    expect(await reopened.headPosition()).toEqual(before[before.length - 1]!.position);
    const next = await reopened.append('order-1', [event('Reopened')], { expected: 2n });
    expect(next.nextExpectedRevision).toBe(3n);
    expect(next.position.commit > before[before.length - 1]!.position.commit).toBe(true);
  });

  it("finds an 'any' retry among the stream's last ANY_RETRY_WINDOW events, and looks no further back", async () => {
    const store = await open(await newDir());
    const first = event('Published');
    await store.append('bus-t', [first], { expected: 'any' });
    const retried = await store.append('bus-t', [first], { expected: 'any' });
    expect(retried.nextExpectedRevision).toBe(0n);
    const filler = Array.from({ length: ANY_RETRY_WINDOW }, () => event('Published'));
    const recent = filler[filler.length - 1]!;
    await store.append('bus-t', filler, { expected: 'any' });
    expect((await store.append('bus-t', [recent], { expected: 'any' })).nextExpectedRevision).toBe(BigInt(ANY_RETRY_WINDOW));
    // The first event is now older than the window: the lookup stops before it, so its id is written again.
    expect((await store.append('bus-t', [first], { expected: 'any' })).nextExpectedRevision).toBe(BigInt(ANY_RETRY_WINDOW) + 1n);
  });

  it('hands out frozen events and rejects data that is not plain JSON', async () => {
    const store = await open(await newDir());
    await store.append('s', [event('Frozen', { nested: { value: 1 } })], { expected: 'any' });
    const [recorded] = await collect(store.read('s'));
    expect(Object.isFrozen((recorded!.data as { nested: object }).nested)).toBe(true);
    await expect(store.append('s', [event('Big', { amount: 1n })], { expected: 'any' })).rejects.toMatchObject({
      code: 'bad_request',
    });
    await expect(store.append('s', [{ ...event(), id: 'not-a-uuid' }], { expected: 'any' })).rejects.toMatchObject({
      code: 'bad_request',
    });
  });

  it('locks its directory against a second open and takes over a dead owner', async () => {
    const dir = await newDir();
    const first = await open(dir);
    await expect(openLmdbEventStore(dir)).rejects.toMatchObject({
      code: 'store_closed',
      message: `data directory is in use by process ${process.pid}`,
    });
    await first.close();
    await writeFile(join(dir, 'LOCK'), String(deadPid()));
    await open(dir);
    expect(await readFile(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid));
  });

  it('live, a filtered subscription reads past appends it passes over on the next one it takes, or reports a checkpoint', async () => {
    const store = await open(await newDir());
    const abort = new AbortController();
    const subscription = store.subscribeToAll({ from: 'start', filter: { streamPrefixes: ['mine-'] }, signal: abort.signal });
    const sub = subscription[Symbol.asyncIterator]();
    expect((await sub.next()).value).toMatchObject({ kind: 'caughtUp' });
    const [other, mine] = [event('Other'), event('Mine')];
    // One commit: the other stream's append does not wake the subscriber on its own, the second one does.
    const next = sub.next();
    const [, ours] = await Promise.all([
      store.append('other-1', [other], { expected: 'any' }),
      store.append('mine-1', [mine], { expected: 'any' }),
    ]);
    expect((await next).value).toMatchObject({ kind: 'event', event: { id: mine.id, position: ours.position } });
    const passedOver = await store.append('other-1', [event('Other')], { expected: 'any' });
    expect((await sub.next()).value).toEqual<SubscriptionDelivery>({ kind: 'checkpoint', position: passedOver.position });
    abort.abort();
    expect((await sub.next()).done).toBe(true);
  });

  it('ends subscriptions and refuses work once closed', async () => {
    const store = await open(await newDir());
    const sub = store.subscribeToAll({ from: 'start' })[Symbol.asyncIterator]();
    expect((await sub.next()).value).toEqual<SubscriptionDelivery>({ kind: 'caughtUp', position: null });
    const waiting = sub.next();
    await store.close();
    expect((await waiting).done).toBe(true);
    await expect(store.append('s', [event()], { expected: 'any' })).rejects.toMatchObject({ code: 'store_closed' });
    await expect(store.streamRevision('s')).rejects.toMatchObject({ code: 'store_closed' });
  });

  it('stores an append of large events compressed, and reads it back whole', async () => {
    const dir = await newDir();
    const store = await open(dir);
    const big = event('Charged', { note: 'n'.repeat(2000), items: Array.from({ length: 50 }, (_, i) => ({ i, kind: 'usage' })) });
    await store.append('s', [big], { expected: 'no_stream' });
    await store.close();
    const raw = openLmdb({ path: join(dir, STORE_FILE), maxDbs: 4, compression: false });
    const stored = raw.openDB<Buffer, number>({ name: 'events', encoding: 'binary' }).get(0);
    await raw.close();
    expect(stored!.length).toBeLessThan(JSON.stringify(big).length / 2);
    const [recorded] = await collect((await open(dir)).read('s'));
    expect(recorded!.data).toEqual(big.data);
  });

  it('refuses a store of another layout instead of misreading it', async () => {
    const first = await newDir();
    const layoutOne = openLmdb({ path: join(first, STORE_FILE), maxDbs: 3, compression: false });
    await layoutOne.openDB({ name: 'events' }).put(0, ['s', Date.now(), 0, JSON.stringify([event()])]);
    await layoutOne.close();
    const newer = await newDir();
    const layoutThree = openLmdb({ path: join(newer, STORE_FILE), maxDbs: 4 });
    await layoutThree.openDB({ name: 'meta' }).put('format', STORE_FORMAT + 1);
    await layoutThree.close();
    for (const [dir, layout] of [
      [first, 1],
      [newer, STORE_FORMAT + 1],
    ] as const) {
      const refusal = { code: 'store_corrupt', message: expect.stringContaining(`has layout ${layout}`) };
      await expect(openLmdbEventStore(dir)).rejects.toMatchObject(refusal);
      // The refusal released the directory: a second open is refused for the same reason, not as a busy directory.
      await expect(openLmdbEventStore(dir)).rejects.toMatchObject(refusal);
    }
  });

  it('writes concurrent appends to different streams in few transactions (one fsync each)', async () => {
    const store = (await open(await newDir())) as LmdbEventStore;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => store.append(`stream-${i}`, [event()], { expected: 'no_stream' })),
    );
    expect(results.every((r) => r.nextExpectedRevision === 0n)).toBe(true);
    expect(store.flushes).toBeLessThan(10);
  });

  it('keeps every acknowledged append when its process is killed with SIGKILL', async () => {
    const dir = await newDir();
    const acked = await appendUntilKilled(dir);
    expect(acked.size).toBeGreaterThan(0);
    const store = await open(dir);
    for (const [stream, ackedRevision] of acked) {
      const events = await collect(store.read(stream));
      expect(BigInt(events.length - 1)).toBeGreaterThanOrEqual(ackedRevision);
      expectWholeBatches(events);
    }
  });
});

function event(type = 'Tested', data: unknown = {}): EventData {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { correlationId: randomUUID(), occurredAt: '2024-05-01T12:00:00.000Z', schemaVersion: 1 },
  };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (pid === undefined) throw new Error('could not start a process');
  return pid;
}

/** Every event carries `{ n: its revision, i: index in its append, of: size of its append }`. */
function expectWholeBatches(events: readonly RecordedEvent[]): void {
  events.forEach((e, n) => expect({ revision: e.revision, n: (e.data as { n: number }).n }).toEqual({ revision: BigInt(n), n }));
  for (let at = 0; at < events.length;) {
    const { of } = events[at]!.data as { of: number };
    const batch = events.slice(at, at + of).map((e) => e.data as { i: number; of: number });
    expect(batch).toEqual(Array.from({ length: of }, (_, i) => expect.objectContaining({ i, of })));
    at += of;
  }
}

const CHILD = `
const { randomUUID } = await import('node:crypto');
const { openLmdbEventStore } = await import(process.env.STORE_MODULE);
const store = await openLmdbEventStore(process.env.STORE_DIR);
process.stdout.write('ready\\n');
const metadata = { correlationId: randomUUID(), occurredAt: new Date(0).toISOString(), schemaVersion: 1 };
async function writer(stream) {
  for (let revision = -1n, append = 0; ; append += 1) {
    const of = 1 + (append % 3);
    const events = Array.from({ length: of }, (_, i) => ({
      id: randomUUID(), type: 'Ticked', data: { n: Number(revision) + 1 + i, i, of }, metadata,
    }));
    revision = (await store.append(stream, events, { expected: revision })).nextExpectedRevision;
    process.stdout.write(stream + ' ' + revision + '\\n');
  }
}
await Promise.all(['s0', 's1', 's2', 's3'].map(writer));
`;

/** Runs appenders in a child process, SIGKILLs it mid-flight, and returns the last acknowledged revision per stream. */
function appendUntilKilled(dir: string): Promise<Map<string, bigint>> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, STORE_DIR: dir, STORE_MODULE: new URL('./lmdb-event-store.ts', import.meta.url).href },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked = new Map<string, bigint>();
  let acks = 0;
  let partial = '';
  let stderr = '';
  let bound: NodeJS.Timeout | undefined;
  const kill = () => {
    clearTimeout(bound);
    child.kill('SIGKILL');
  };
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line === 'ready') {
        bound = setTimeout(kill, 1000); // the only timer: bounds the run if acks come slowly
        continue;
      }
      const [stream, revision] = line.split(' ');
      acked.set(stream!, BigInt(revision!));
      if (++acks === 500) kill();
    }
  });
  return new Promise((resolve, reject) => {
    child.on('close', (code, signal) => {
      clearTimeout(bound);
      if (signal === 'SIGKILL') resolve(acked);
      else reject(new Error(`appender exited with ${code} before being killed: ${stderr}`));
    });
  });
}
