import { closeSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * Run files of the bulk load: records `[key length u8][value length u16][key][value]`, written and read
 * through large buffers with synchronous I/O (a record is a few dozen bytes: a stream per record would
 * cost more than the record). A reader hands out views into its buffer; a refill allocates a new buffer,
 * so a view stays valid after the reader moved on.
 */

const BLOCK = 4 * 1024 * 1024;
/** A reader's buffer (a merge reads up to 64 runs at once: external-sorter.ts). */
const READ_BLOCK = 1024 * 1024;

export class RunWriter {
  private readonly fd: number;
  private buffer = Buffer.allocUnsafe(BLOCK);
  private used = 0;
  records = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(key: Uint8Array, value: Uint8Array): void {
    const size = 3 + key.length + value.length;
    if (this.used + size > this.buffer.length) this.flush();
    if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size);
    const b = this.buffer;
    b[this.used] = key.length;
    b.writeUInt16LE(value.length, this.used + 1);
    b.set(key, this.used + 3);
    b.set(value, this.used + 3 + key.length);
    this.used += size;
    this.records += 1;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    let at = 0;
    while (at < this.used) at += writeSync(this.fd, this.buffer, at, this.used - at);
    this.used = 0;
  }
}

export interface RunRecord {
  readonly key: Buffer;
  readonly value: Buffer;
}

export class RunReader {
  private readonly fd: number;
  private buffer = Buffer.alloc(0);
  private at = 0;
  private eof = false;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
  }

  /** The next record, or null at the end (the file is closed then). */
  next(): RunRecord | null {
    if (!this.has(3)) return this.end();
    const keyLength = this.buffer[this.at] ?? 0;
    const valueLength = this.buffer.readUInt16LE(this.at + 1);
    if (!this.has(3 + keyLength + valueLength)) throw new Error(`bulk load: truncated run file ${this.path}`);
    const start = this.at + 3;
    this.at = start + keyLength + valueLength;
    return { key: this.buffer.subarray(start, start + keyLength), value: this.buffer.subarray(start + keyLength, this.at) };
  }

  private end(): null {
    if (this.buffer.length - this.at > 0) throw new Error(`bulk load: truncated run file ${this.path}`);
    if (!this.eof) this.eof = true;
    closeSync(this.fd);
    this.buffer = Buffer.alloc(0);
    this.at = 0;
    return null;
  }

  /** True when `bytes` bytes are buffered from `at` on, reading more when needed. */
  private has(bytes: number): boolean {
    if (this.buffer.length - this.at >= bytes) return true;
    if (this.eof) return false;
    const rest = this.buffer.length - this.at;
    const next = Buffer.allocUnsafe(Math.max(READ_BLOCK, bytes));
    this.buffer.copy(next, 0, this.at);
    let filled = rest;
    while (filled < next.length) {
      const read = readSync(this.fd, next, filled, next.length - filled, null);
      if (read === 0) {
        this.eof = true;
        break;
      }
      filled += read;
    }
    this.buffer = next.subarray(0, filled);
    this.at = 0;
    return filled >= bytes;
  }
}

/**
 * Byte order of two keys, compared in JavaScript: the keys are short and differ early, and a loop the JIT
 * inlines costs a fraction of Buffer.compare's call into C++ (a sort makes twenty calls per record).
 */
export function compareKeys(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** The records of sorted runs in key order, equal keys side by side (a binary heap of the runs' heads). */
export function* mergeRuns(paths: readonly string[]): Generator<RunRecord> {
  type Head = { record: RunRecord; reader: RunReader };
  const heads: Head[] = [];
  const at = (i: number) => heads[i] as Head;
  const less = (i: number, j: number) => compareKeys(at(i).record.key, at(j).record.key) < 0;
  const swap = (i: number, j: number) => ([heads[i], heads[j]] = [at(j), at(i)]);
  const down = (from: number) => {
    for (let i = from; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heads.length && less(l, m)) m = l;
      if (r < heads.length && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (const path of paths) {
    const reader = new RunReader(path);
    const record = reader.next();
    if (record) heads.push({ record, reader });
  }
  for (let i = Math.floor(heads.length / 2) - 1; i >= 0; i--) down(i);
  while (heads.length > 0) {
    const top = at(0);
    yield top.record;
    const record = top.reader.next();
    if (record) top.record = record;
    else {
      heads[0] = at(heads.length - 1);
      heads.pop();
    }
    down(0);
  }
}
