import { present } from '../../domain/shared/present.js';
import { constants, type FileHandle, open } from 'node:fs/promises';

const ENTRY_BYTES = 8;
const PAGE_ENTRIES = 512;
const CACHED_PAGES = 16;
/** Entries checked at open for a run the OS may have lost after a crash (the file is not fsynced). */
const CHECKED_TAIL_ENTRIES = 16_384;

/** Entries appended but not yet written beyond which `append`'s callers should wait for `drained()`. */
export const MAX_UNWRITTEN_ENTRIES = 65_536;

/**
 * A partition's offset index on disk: message offset n → byte offset of its record in the partition log,
 * as a big-endian u64 at byte 8n. It is derived from the log and never fsynced: after a crash its tail is
 * checked and whatever is missing is indexed again from the log. Entries are written in the background,
 * batched; until then they are answered from memory. Memory: at most CACHED_PAGES pages of PAGE_ENTRIES
 * entries (64 KB) plus the unwritten entries, whatever the partition's length.
 */
export class OffsetIndexFile {
  private readonly pages = new Map<number, Float64Array>();
  /** Entries [written, length), not on file yet. */
  private unwritten: bigint[] = [];
  private written: number;
  private writing: Promise<void> | null = null;
  private writeFailure: unknown = null;

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
    private length: number,
  ) {
    this.written = length;
  }

  static async open(path: string): Promise<OffsetIndexFile> {
    const handle = await open(path, constants.O_RDWR | constants.O_CREAT);
    try {
      const { size } = await handle.stat();
      return new OffsetIndexFile(handle, path, Math.floor(size / ENTRY_BYTES));
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Entries indexed: the next message gets this offset. */
  get count(): number {
    return this.length;
  }

  /** Why writing entries failed, if it did: later offsets would be wrong until a reopen re-indexes. */
  get failure(): unknown {
    return this.writeFailure;
  }

  get unwrittenCount(): number {
    return this.unwritten.length;
  }

  async at(n: number): Promise<number> {
    if (!(Number.isInteger(n) && n >= 0 && n < this.length)) throw new RangeError(`${this.path} has no entry ${n}`);
    if (n >= this.written) return Number(this.unwritten[n - this.written]);
    const page = Math.floor(n / PAGE_ENTRIES);
    const cached = this.pages.get(page);
    if (cached) return present(cached[n % PAGE_ENTRIES], 'a cached page is a whole page');
    const entries = await this.read(page * PAGE_ENTRIES, Math.min(PAGE_ENTRIES, this.written - page * PAGE_ENTRIES));
    // Only whole pages are cached: a partial last page would go stale on the next append.
    if (entries.length === PAGE_ENTRIES) {
      this.pages.set(page, entries);
      if (this.pages.size > CACHED_PAGES)
        this.pages.delete(present(this.pages.keys().next().value, 'the page cache is over its bound, so not empty'));
    }
    return present(entries[n % PAGE_ENTRIES], 'n is below the length written');
  }

  /**
   * The longest prefix whose checked tail is strictly increasing and below `logSize`: after an OS crash an
   * unflushed page reads back as zeros or is missing. The caller still checks the last entry's record.
   */
  async plausibleCount(logSize: number): Promise<number> {
    const from = Math.max(0, this.length - CHECKED_TAIL_ENTRIES);
    const tail = await this.read(from, this.length - from);
    let previous = from === 0 ? -1 : present((await this.read(from - 1, 1))[0], 'from - 1 is below the length');
    for (let i = 0; i < tail.length; i += 1) {
      const position = present(tail[i], 'i is within the tail read');
      if (position <= previous || position >= logSize || (from + i === 0 && position !== 0)) return from + i;
      previous = position;
    }
    return this.length;
  }

  /** Drops entries from `count` on, so that appends continue right after the last good one. */
  async truncate(count: number): Promise<void> {
    if (count >= this.length) return;
    await this.drained();
    await this.handle.truncate(count * ENTRY_BYTES);
    this.length = count;
    this.written = count;
    for (const page of this.pages.keys()) if ((page + 1) * PAGE_ENTRIES > count) this.pages.delete(page);
  }

  /** Entries for the next messages, in order: counted and readable at once, written in the background. */
  append(positions: readonly bigint[]): void {
    this.unwritten.push(...positions);
    this.length += positions.length;
    // Deferred to the next turn, so that the appends made visible together share one write.
    this.writing ??= new Promise(setImmediate).then(() => this.writeUnwritten());
  }

  /** Resolves once every entry appended so far is written (not synced). */
  async drained(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.writeFailure) throw this.writeFailure;
  }

  private async writeUnwritten(): Promise<void> {
    try {
      while (this.unwritten.length > 0 && !this.writeFailure) {
        const batch = this.unwritten.slice();
        const bytes = Buffer.allocUnsafe(batch.length * ENTRY_BYTES);
        batch.forEach((position, i) => bytes.writeBigUInt64BE(position, i * ENTRY_BYTES));
        const at = this.written * ENTRY_BYTES;
        for (let done = 0; done < bytes.length;) {
          const { bytesWritten } = await this.handle.write(bytes, done, bytes.length - done, at + done);
          done += bytesWritten;
        }
        this.unwritten.splice(0, batch.length);
        this.written += batch.length;
      }
    } catch (error) {
      this.writeFailure = error;
    } finally {
      this.writing = null;
    }
  }

  async close(): Promise<void> {
    await this.drained().catch(() => undefined);
    await this.handle.close();
  }

  /** Entries as numbers (byte offsets stay far below 2^53). */
  private async read(first: number, count: number): Promise<Float64Array> {
    const bytes = Buffer.alloc(count * ENTRY_BYTES);
    for (let done = 0; done < bytes.length;) {
      const { bytesRead } = await this.handle.read(bytes, done, bytes.length - done, first * ENTRY_BYTES + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    const entries = new Float64Array(count);
    for (let i = 0; i < count; i += 1) entries[i] = bytes.readUInt32BE(i * ENTRY_BYTES) * 2 ** 32 + bytes.readUInt32BE(i * ENTRY_BYTES + 4);
    return entries;
  }
}
