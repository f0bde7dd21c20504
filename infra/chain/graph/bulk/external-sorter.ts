import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { compareKeys, mergeRuns, RunWriter, type RunRecord } from './record-runs.js';

/**
 * An external sort of (key, value) records in bounded memory: records gather in memory (summed per key
 * when a `combine` is given) up to `maxEntries`, then are sorted and spilled to a run file under `dir`;
 * reading merges the runs (k-way), combining equal keys again. Keys compare as bytes, LMDB's order. A merge
 * reads at most FAN_IN runs at once (each holds a read buffer): more runs than that are merged in passes of
 * FAN_IN runs into one first, so that memory does not grow with the input.
 */

const FAN_IN = 64;

export interface SorterOptions {
  readonly dir: string;
  readonly name: string;
  readonly maxEntries: number;
  /** Two values of one key as one (a new buffer or one of the two). */
  readonly combine?: (a: Buffer, b: Buffer) => Buffer;
  /**
   * Two numbers read from a key whose order is the keys' byte order as far as they tell (the rest goes
   * by bytes): a sort compares numbers twenty times per record, much cheaper than bytes.
   */
  readonly numbers?: (key: Buffer) => readonly [number, number];
}

/** The records in key order: by their numbers, then by bytes. */
function sortRecords(records: RunRecord[], numbers: SorterOptions['numbers']): RunRecord[] {
  if (!numbers) return records.sort((a, b) => compareKeys(a.key, b.key));
  const hi = new Float64Array(records.length);
  const lo = new Float64Array(records.length);
  records.forEach((record, i) => ([hi[i], lo[i]] = numbers(record.key)));
  const order = new Uint32Array(records.length).map((_, i) => i);
  order.sort(
    (i, j) =>
      (hi[i] as number) - (hi[j] as number) ||
      (lo[i] as number) - (lo[j] as number) ||
      compareKeys((records[i] as RunRecord).key, (records[j] as RunRecord).key),
  );
  return Array.from(order, (i) => records[i] as RunRecord);
}

export class ExternalSorter {
  private readonly byKey = new Map<string, RunRecord>();
  private readonly list: RunRecord[] = [];
  private runs: string[] = [];
  /** Run files written (spills and merge passes). */
  files = 0;
  added = 0;

  constructor(private readonly options: SorterOptions) {}

  add(key: Buffer, value: Buffer): void {
    this.added += 1;
    const { combine } = this.options;
    if (!combine) {
      this.list.push({ key, value });
      if (this.list.length >= this.options.maxEntries) this.spill();
      return;
    }
    const id = key.toString('latin1');
    const found = this.byKey.get(id);
    if (found) this.byKey.set(id, { key, value: combine(found.value, value) });
    else {
      this.byKey.set(id, { key, value });
      if (this.byKey.size >= this.options.maxEntries) this.spill();
    }
  }

  /** Sorts what is in memory into a run file of its own. */
  spill(): void {
    const records = this.options.combine ? [...this.byKey.values()] : this.list.splice(0);
    this.byKey.clear();
    if (records.length === 0) return;
    this.runs.push(this.written(sortRecords(records, this.options.numbers)));
  }

  private written(records: Iterable<RunRecord>): string {
    const writer = new RunWriter(join(this.options.dir, `${this.options.name}-${this.files++}.run`));
    for (const { key, value } of records) writer.write(key, value);
    writer.close();
    return writer.path;
  }

  /** Merges the runs FAN_IN at a time into fewer, longer runs. */
  private mergePass(): void {
    const merged: string[] = [];
    for (let at = 0; at < this.runs.length; at += FAN_IN) {
      const group = this.runs.slice(at, at + FAN_IN);
      merged.push(group.length === 1 ? (group[0] as string) : this.written(this.combined(group)));
      if (group.length > 1) for (const path of group) rmSync(path, { force: true });
    }
    this.runs = merged;
  }

  /** Every record, in key order, one per key when combining (spills what memory holds first). */
  sorted(): Generator<RunRecord> {
    this.spill();
    while (this.runs.length > FAN_IN) this.mergePass();
    return this.combined(this.runs);
  }

  /** The records of `runs` in key order, one per key when combining. */
  private *combined(runs: readonly string[]): Generator<RunRecord> {
    const { combine } = this.options;
    let pending: RunRecord | null = null;
    for (const record of mergeRuns(runs)) {
      if (pending && combine && compareKeys(pending.key, record.key) === 0) {
        pending = { key: pending.key, value: combine(pending.value, record.value) };
        continue;
      }
      if (pending) yield pending;
      pending = record;
    }
    if (pending) yield pending;
  }

  /** Deletes the run files. */
  remove(): void {
    for (const path of this.runs.splice(0)) rmSync(path, { force: true });
  }
}
