import { appendFile, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FRAME_HEADER_BYTES } from './frame.codec.js';
import { FramedLog } from './framed-log.js';

describe('FramedLog', () => {
  let dir: string;
  let path: string;
  const open: FramedLog[] = [];
  const openLog = async (options?: { fsync?: boolean }) => {
    const opened = await FramedLog.open(path, options);
    open.push(opened.log);
    return opened;
  };
  const payloadsOf = (records: { payload: Buffer }[]) => records.map((r) => r.payload.toString());

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'framed-log-'));
    path = join(dir, 'test.log');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((log) => log.close()));
    await rm(dir, { recursive: true, force: true });
  });

  it('creates an empty log, appends frames and reads them back by offset', async () => {
    const { log, records } = await openLog();
    expect(records).toEqual([]);
    expect(log.size).toBe(0n);
    const offsets = await log.append([Buffer.from('one'), Buffer.from(''), Buffer.from('three')]);
    expect(offsets).toEqual([0n, BigInt(FRAME_HEADER_BYTES + 3), BigInt(2 * FRAME_HEADER_BYTES + 3)]);
    expect(log.size).toBe(BigInt((await stat(path)).size));
    expect((await log.read(offsets[2]!)).toString()).toBe('three');
    expect((await log.read(offsets[1]!)).length).toBe(0);
    await expect(log.read(1n)).rejects.toMatchObject({ code: 'bad_request' });
    await expect(log.read(log.size)).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('reads a record by offset whether it fits the first read or not (a first read of 4 KB)', async () => {
    const { log } = await openLog();
    const sizes = [0, 1, 4096 - FRAME_HEADER_BYTES - 1, 4096 - FRAME_HEADER_BYTES, 4096 - FRAME_HEADER_BYTES + 1, 100_000];
    const payloads = sizes.map((size, i) => Buffer.alloc(size, String.fromCharCode(97 + i)));
    const offsets = await log.append(payloads);
    for (const [i, offset] of offsets.entries()) expect((await log.read(offset)).equals(payloads[i]!)).toBe(true);
  });

  it('returns every record with its offset on reopen, including ones larger than a scan chunk', async () => {
    const { log } = await openLog();
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 'x');
    const offsets = [...(await log.append([Buffer.from('a'), big])), ...(await log.append([Buffer.from('c')]))];
    await log.close();
    const { records } = await openLog();
    expect(records.map((r) => r.offset)).toEqual(offsets);
    expect(records[1]!.payload.equals(big)).toBe(true);
    expect(payloadsOf([records[0]!, records[2]!])).toEqual(['a', 'c']);
  });

  it('coalesces concurrent appends into few write+fsync rounds, keeping call order', async () => {
    const { log } = await openLog();
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => log.append([Buffer.from(`r${i}`)])));
    const offsets = results.map(([offset]) => offset!);
    offsets.slice(1).forEach((offset, i) => expect(offset > offsets[i]!).toBe(true));
    expect(log.flushes).toBeLessThan(10);
    await log.close();
    expect(payloadsOf((await openLog()).records)).toEqual(Array.from({ length: 200 }, (_, i) => `r${i}`));
  });

  it.each([
    ['an incomplete last frame', async (size: number) => truncate(path, size - 2)],
    ['a torn header', async (size: number) => truncate(path, size - (FRAME_HEADER_BYTES + 5) + 6)],
    ['a bad checksum in the last frame', async (size: number) => flipByte(size - 1)],
  ])('cuts away %s on open and appends after it', async (_, damage) => {
    const { log } = await openLog();
    await log.append([Buffer.from('kept-1'), Buffer.from('kept-2')]);
    await log.append([Buffer.from('lost!')]);
    const size = Number(log.size);
    await log.close();
    await damage(size);

    const reopened = await openLog();
    expect(payloadsOf(reopened.records)).toEqual(['kept-1', 'kept-2']);
    expect(reopened.log.size).toBe(BigInt(size - FRAME_HEADER_BYTES - 5));
    expect(BigInt((await stat(path)).size)).toBe(reopened.log.size);
    await reopened.log.append([Buffer.from('after')]);
    await reopened.log.close();
    expect(payloadsOf((await openLog()).records)).toEqual(['kept-1', 'kept-2', 'after']);
  });

  it('cuts away garbage after the last frame', async () => {
    const { log } = await openLog();
    await log.append([Buffer.from('kept')]);
    const size = log.size;
    await log.close();
    await appendFile(path, Buffer.from('garbage that is not a frame'));
    const reopened = await openLog();
    expect(payloadsOf(reopened.records)).toEqual(['kept']);
    expect(reopened.log.size).toBe(size);
    expect(BigInt((await stat(path)).size)).toBe(size);
  });

  it('refuses to open a log with corruption followed by valid frames, naming file and offset', async () => {
    const { log } = await openLog();
    const [, second] = await log.append([Buffer.from('first'), Buffer.from('second'), Buffer.from('third')]);
    await log.close();
    await flipByte(Number(second!) + FRAME_HEADER_BYTES + 1);
    const opening = FramedLog.open(path);
    await expect(opening).rejects.toMatchObject({ code: 'store_corrupt', details: { path, offset: Number(second!) } });
    await expect(opening).rejects.toThrow(path);
  });

  it('treats a corrupt length field in the middle as corruption, not as a torn tail', async () => {
    const { log } = await openLog();
    await log.append([Buffer.from('first'), Buffer.from('second')]);
    await log.close();
    await flipByte(4); // first frame's length: now points past the end of the file
    await expect(FramedLog.open(path)).rejects.toMatchObject({ code: 'store_corrupt', details: { offset: 0 } });
  });

  it('works without fsync and rejects appends after close', async () => {
    const { log } = await openLog({ fsync: false });
    await log.append([Buffer.from('x')]);
    await log.close();
    await expect(log.append([Buffer.from('y')])).rejects.toMatchObject({ code: 'store_closed' });
    expect(payloadsOf((await openLog()).records)).toEqual(['x']);
  });

  it('close waits for appends already accepted', async () => {
    const { log } = await openLog();
    const pending = log.append([Buffer.from('in flight')]);
    await log.close();
    await expect(pending).resolves.toEqual([0n]);
    expect(payloadsOf((await openLog()).records)).toEqual(['in flight']);
  });

  it('opens from an offset, handing over only the records after it, and still cuts a torn tail', async () => {
    const { log } = await openLog();
    const [, second, third] = await log.append([Buffer.from('a'), Buffer.from('b'), Buffer.from('c')]);
    const size = log.size;
    await log.close();
    await appendFile(path, Buffer.from('torn'));
    const seen: string[] = [];
    const reopened = await FramedLog.openFrom(path, {
      from: () => second!,
      onRecords: (records) => void seen.push(...payloadsOf(records)),
    });
    open.push(reopened);
    expect(seen).toEqual(['b', 'c']);
    expect(reopened.size).toBe(size);
    const scanned: string[] = [];
    for await (const record of reopened.scan(second!, size)) scanned.push(record.payload.toString());
    expect(scanned).toEqual(['b', 'c']);
    const upToThird: string[] = [];
    for await (const record of reopened.scan(0n, third!)) upToThird.push(record.payload.toString());
    expect(upToThird).toEqual(['a', 'b']);
  });

  it('reports a bad frame met while scanning as corruption', async () => {
    const { log } = await openLog();
    const [, second] = await log.append([Buffer.from('first'), Buffer.from('second')]);
    const size = log.size;
    await log.close();
    await flipByte(Number(second!) + FRAME_HEADER_BYTES + 1);
    const reopened = await FramedLog.openFrom(path, { from: () => size, onRecords: () => undefined });
    open.push(reopened);
    const scanning = (async () => {
      for await (const _ of reopened.scan(0n, size));
    })();
    await expect(scanning).rejects.toMatchObject({ code: 'store_corrupt', details: { offset: Number(second!) } });
  });

  async function flipByte(at: number): Promise<void> {
    const bytes = await readFile(path);
    bytes[at] = bytes[at]! ^ 0xff;
    await writeFile(path, bytes);
  }
});
