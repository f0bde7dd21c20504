import { constants, type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fail, type ServiceError } from '../../domain/shared/errors.js';
import { checkFrame, encodeFrame, FRAME_HEADER_BYTES, findValidFrame } from './frame.codec.js';

export interface FramedLogOptions {
  /**
   * Durable before acknowledging an append (the file is opened O_DSYNC: each write returns once its data,
   * and the size it gives the file, are on disk, as a write then fdatasync would, in one system call).
   * Defaults to true; turn off only for throwaway data.
   */
  readonly fsync?: boolean;
}

export interface LogRecord {
  readonly offset: bigint;
  readonly payload: Buffer;
}

interface PendingAppend {
  readonly payloads: readonly Buffer[];
  readonly resolve: (offsets: bigint[]) => void;
  readonly reject: (error: unknown) => void;
}

const SCAN_CHUNK_BYTES = 1 << 20;
/** Bytes read at a record's offset by `read`: the frame, unless it is larger. */
const READ_AHEAD_BYTES = 4096;

/**
 * An append-only file of CRC-framed records. Appends are acknowledged only once durable, and appends that
 * arrive while a write+fsync is in flight share the next one (group commit).
 */
export class FramedLog {
  private readonly queue: PendingAppend[] = [];
  private flushing: Promise<void> | null = null;
  private closed = false;
  private failure: ServiceError | null = null;
  private flushCount = 0;

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
    /** Bytes durably written; the next frame starts here. */
    private end: number,
    private readonly fsync: boolean,
    /** A reader of a log another FramedLog of this process writes: it never writes, and reads up to `follow`. */
    private readonly readOnly = false,
  ) {}

  /**
   * Opens a log another FramedLog (in another thread of this process) writes, for reading its first `end`
   * bytes, which the writer vouches for (written, durable, verified): nothing is checked or cut at open.
   * `follow` moves the end as the writer appends.
   */
  static async openReader(path: string, end: number): Promise<FramedLog> {
    return new FramedLog(await open(path, 'r'), path, end, false, true);
  }

  /** A reader's end moves on to `end` (bytes the writer has made durable). */
  follow(end: number): void {
    if (!this.readOnly) throw new Error(`${this.path}: only a reader follows its writer`);
    this.end = Math.max(this.end, end);
  }

  /** Opens (creating if missing), verifies every frame, and cuts a torn or corrupt tail away. */
  static async open(path: string, options: FramedLogOptions = {}): Promise<{ log: FramedLog; records: LogRecord[] }> {
    const records: LogRecord[] = [];
    const onRecords = (chunk: LogRecord[]) => {
      for (const record of chunk) records.push(record);
    };
    const log = await FramedLog.openFrom(path, { ...options, from: () => 0n, onRecords });
    return { log, records };
  }

  /**
   * Opens (creating if missing) and verifies only the frames from `from` on, handing them to `onRecords`
   * chunk by chunk, then cuts a torn or corrupt tail away. Frames before `from` were verified when they
   * were indexed, so opening costs the unindexed tail, not the whole log. `from` gets the log before
   * recovery (its size is the file's) to check its index against it.
   */
  static async openFrom(
    path: string,
    options: FramedLogOptions & {
      readonly from: (unverified: FramedLog) => bigint | Promise<bigint>;
      readonly onRecords: (records: LogRecord[]) => void | Promise<void>;
    },
  ): Promise<FramedLog> {
    const fsync = options.fsync ?? true;
    const { handle, created } = await openOrCreate(path, fsync);
    try {
      if (created && fsync) await syncDirectory(dirname(path));
      const fileSize = (await handle.stat()).size;
      const log = new FramedLog(handle, path, fileSize, fsync);
      const from = Number(await options.from(log));
      if (!(from >= 0 && from <= fileSize))
        throw fail('store_corrupt', `${path}: cannot start reading at ${from}, the file has ${fileSize} bytes`);
      const scanned = { end: from };
      for await (const records of readFrames(handle, from, fileSize, scanned)) await options.onRecords(records);
      if (scanned.end < fileSize) await cutTornTail(handle, path, scanned.end, fileSize, fsync);
      log.end = scanned.end;
      return log;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Bytes of valid, durable records. */
  get size(): bigint {
    return BigInt(this.end);
  }

  /** Completed write(+fsync) rounds: fewer than appends when group commit kicks in. */
  get flushes(): number {
    return this.flushCount;
  }

  /** Resolves with each record's offset once all of them are durable. Records are written in call order. */
  append(payloads: readonly Buffer[]): Promise<bigint[]> {
    if (this.closed) return Promise.reject(fail('store_closed', `${this.path} is closed`));
    if (this.readOnly) return Promise.reject(fail('store_closed', `${this.path} is open for reading only`));
    if (this.failure) return Promise.reject(this.failure);
    if (payloads.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ payloads, resolve, reject });
      // Deferred by a microtask so appends issued in the same tick share the first write too.
      this.flushing ??= Promise.resolve().then(() => this.flush());
    });
  }

  /** The payload of the record starting at `offset` (an offset returned by `append` or `open`). */
  async read(offset: bigint): Promise<Buffer> {
    if (this.closed) throw fail('store_closed', `${this.path} is closed`);
    const noRecord = () => fail('bad_request', `no valid record at offset ${offset} of ${this.path}`, { path: this.path, offset });
    const at = Number(offset);
    if (!(at >= 0 && at + FRAME_HEADER_BYTES <= this.end)) throw noRecord();
    // Most records are under a few KB: one read of the header and what follows usually holds the whole
    // frame (a read is a round trip through libuv's thread pool).
    const first = await readExactly(this.handle, at, Math.min(READ_AHEAD_BYTES, this.end - at));
    const frameEnd = at + FRAME_HEADER_BYTES + first.readUInt32BE(4);
    if (frameEnd > this.end) throw noRecord();
    let frame = first.subarray(0, frameEnd - at);
    if (frameEnd - at > first.length) {
      frame = Buffer.allocUnsafe(frameEnd - at);
      first.copy(frame);
      await readInto(this.handle, frame, first.length, at + first.length);
    }
    if (checkFrame(frame, 0).kind !== 'ok') throw noRecord();
    return frame.subarray(FRAME_HEADER_BYTES);
  }

  /**
   * The records from `from` (a record's offset) up to `to` (another's, or the size), read in chunks and
   * checked: what was durable once must still be whole, so a bad frame here is corruption.
   */
  async *scan(from: bigint, to: bigint): AsyncGenerator<LogRecord> {
    if (this.closed) throw fail('store_closed', `${this.path} is closed`);
    const limit = Math.min(Number(to), this.end);
    const scanned = { end: Number(from) };
    for await (const records of readFrames(this.handle, scanned.end, limit, scanned)) yield* records;
    if (scanned.end < limit) {
      throw fail('store_corrupt', `${this.path}: corrupt record at byte offset ${scanned.end}`, { path: this.path, offset: scanned.end });
    }
  }

  /** Waits for appends already accepted, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.handle.close();
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      const frames: Buffer[] = [];
      const offsets: bigint[][] = [];
      let next = this.end;
      for (const pending of batch) {
        offsets.push(
          pending.payloads.map((payload) => {
            const frame = encodeFrame(payload);
            frames.push(frame);
            next += frame.length;
            return BigInt(next - frame.length);
          }),
        );
      }
      try {
        // O_DSYNC (with fsync on): durable when the write returns.
        await writeFully(this.handle, Buffer.concat(frames), this.end);
      } catch (error) {
        // After a failed write the page cache state is unknown; only a reopen (which re-verifies
        // the tail) may append again.
        this.failure = fail('store_closed', `${this.path} refuses appends after a failed write: ${String(error)}`);
        for (const pending of [...batch, ...this.queue.splice(0)]) pending.reject(this.failure);
        break;
      }
      this.end = next;
      this.flushCount += 1;
      batch.forEach((pending, i) => pending.resolve(offsets[i] ?? []));
    }
    this.flushing = null;
  }
}

async function openOrCreate(path: string, fsync: boolean): Promise<{ handle: FileHandle; created: boolean }> {
  const durable = fsync ? constants.O_DSYNC : 0;
  try {
    return { handle: await open(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | durable), created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { handle: await open(path, constants.O_RDWR | durable), created: false };
  }
}

/** A new file's directory entry is durable only once its directory is synced. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Reads the frames in [from, limit) in chunks, yielding each chunk's records; stops at the first frame that
 * is incomplete or fails its check. `scanned.end` is the end of the last valid frame read.
 */
async function* readFrames(handle: FileHandle, from: number, limit: number, scanned: { end: number }): AsyncGenerator<LogRecord[]> {
  let buf = Buffer.alloc(0);
  let base = from; // file offset of buf[0]
  let at = 0;
  for (;;) {
    const records: LogRecord[] = [];
    let check = checkFrame(buf, at);
    while (check.kind === 'ok') {
      const start = at + FRAME_HEADER_BYTES;
      records.push({ offset: BigInt(base + at), payload: buf.subarray(start, start + check.length) });
      at = start + check.length;
      check = checkFrame(buf, at);
    }
    scanned.end = base + at;
    if (records.length > 0) yield records;
    const loadedEnd = base + buf.length;
    if (check.kind === 'bad' || loadedEnd >= limit) return;
    const kept = buf.length - at;
    const toRead = Math.min(limit - loadedEnd, Math.max(SCAN_CHUNK_BYTES, check.needed - kept));
    // A fresh buffer per chunk: earlier payloads stay views of the old one, nothing is copied twice.
    const next = Buffer.allocUnsafe(kept + toRead);
    buf.copy(next, 0, at);
    await readInto(handle, next, kept, loadedEnd);
    buf = next;
    base += at;
    at = 0;
  }
}

/** Bytes after the last valid frame are a torn write unless a valid frame follows them (then: corruption). */
async function cutTornTail(handle: FileHandle, path: string, validSize: number, fileSize: number, fsync: boolean) {
  const rest = await readExactly(handle, validSize, fileSize - validSize);
  const found = findValidFrame(rest, 1);
  if (found !== -1) {
    throw fail('store_corrupt', `${path}: corrupt record at byte offset ${validSize} followed by valid records`, {
      path,
      offset: validSize,
      nextValidOffset: validSize + found,
    });
  }
  await handle.truncate(validSize);
  if (fsync) await handle.datasync();
}

async function writeFully(handle: FileHandle, data: Buffer, position: number): Promise<void> {
  for (let done = 0; done < data.length;) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    done += bytesWritten;
  }
}

async function readExactly(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  await readInto(handle, buf, 0, position);
  return buf;
}

async function readInto(handle: FileHandle, buf: Buffer, from: number, position: number): Promise<void> {
  for (let done = from; done < buf.length;) {
    const { bytesRead } = await handle.read(buf, done, buf.length - done, position + done - from);
    if (bytesRead === 0) throw fail('store_corrupt', 'unexpected end of file while reading a log');
    done += bytesRead;
  }
}
