import { appendFile, mkdtemp, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BusPartition, encode } from './bus-partition.js';
import { FramedLog } from './framed-log.js';

describe('bus partition offset index', () => {
  let dir: string;
  let path: string;
  const opened: BusPartition[] = [];
  const open = async () => {
    const partition = await BusPartition.open('t', 0, path);
    opened.push(partition);
    return partition;
  };
  const message = (i: number) => encode({ key: `k${i}`, value: i, headers: {} });
  const values = async (partition: BusPartition) => {
    const out: unknown[] = [];
    for (let offset = 0; offset < partition.end; offset += 1) out.push((await partition.read(offset)).value);
    return out;
  };
  const upTo = (n: number) => Array.from({ length: n }, (_, i) => i);
  const fill = async (count: number) => {
    const partition = await open();
    for (let i = 0; i < count; i += 10) await partition.append(upTo(Math.min(10, count - i)).map((j) => message(i + j)));
    await partition.close();
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bus-partition-'));
    path = join(dir, '0.log');
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((p) => p.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps one 8-byte entry per message on disk and reads every message back after a reopen', async () => {
    await fill(1500);
    expect((await stat(join(dir, '0.idx'))).size).toBe(1500 * 8);
    const partition = await open();
    expect(partition.end).toBe(1500);
    expect(await values(partition)).toEqual(upTo(1500));
  });

  it('opens a partition written before the offset index existed, indexing its log', async () => {
    // The log exactly as the previous code path wrote it: framed messages, no index file.
    const { log } = await FramedLog.open(path);
    await log.append(upTo(30).map(message));
    await log.close();
    expect(await readdir(dir)).toEqual(['0.log']);
    const partition = await open();
    expect(await values(partition)).toEqual(upTo(30));
    await partition.append([message(30)]);
    expect(await values(partition)).toEqual(upTo(31));
  });

  it('indexes again the messages whose entries a crash lost', async () => {
    await fill(100);
    await truncate(join(dir, '0.idx'), 37 * 8 + 3);
    const partition = await open();
    expect(await values(partition)).toEqual(upTo(100));
    await partition.append([message(100)]);
    expect((await partition.read(100)).value).toBe(100);
  });

  it('drops a tail of entries that an OS crash left as zeros or garbage', async () => {
    await fill(100);
    await appendFile(join(dir, '0.idx'), Buffer.alloc(8 * 40));
    const zeros = await open();
    expect(await values(zeros)).toEqual(upTo(100));
    await zeros.close();
    await appendFile(join(dir, '0.idx'), Buffer.from('0123456789abcdef'));
    const garbage = await open();
    expect(await values(garbage)).toEqual(upTo(100));
    expect((await stat(join(dir, '0.idx'))).size).toBe(100 * 8);
  });

  it('rebuilds the index from the log when it names no record of it', async () => {
    await fill(20);
    await writeFile(join(dir, '0.idx'), Buffer.alloc(8 * 20, 0xff));
    expect(await values(await open())).toEqual(upTo(20));
  });
});
