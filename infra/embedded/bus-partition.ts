import type { BusMessage, MessageHeaders } from '../../domain/ports/message-bus.port.js';
import { fail } from '../../domain/shared/errors.js';
import { FRAME_HEADER_BYTES } from './frame.codec.js';
import { FramedLog } from './framed-log.js';
import { MAX_UNWRITTEN_ENTRIES, OffsetIndexFile } from './offset-index-file.js';

/**
 * One topic-partition of the embedded bus: a framed log file `<n>.log` plus an offset index file `<n>.idx`
 * from message offset (0, 1, 2, … as in Kafka) to the record's byte offset. A message becomes visible to
 * consumers only once its append is durable, and always in log order even when appends resolve together
 * (group commit). Recently appended payloads stay in memory so live delivery does not touch the disk;
 * nothing else is kept per message, and opening reads only the log past the last indexed record.
 */

export interface StoredMessage extends BusMessage {
  readonly offset: number;
}

interface Encoded {
  k: string;
  v: unknown;
  h: MessageHeaders;
  nb?: number;
}

/** Serializes up front so that a message that is not JSON fails the whole publish before anything is written. */
export function encode(message: BusMessage): Buffer {
  const body: Encoded = { k: message.key, v: message.value ?? null, h: message.headers };
  if (message.notBefore !== undefined) body.nb = message.notBefore;
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function decode(payload: Buffer, offset: number): StoredMessage {
  const body = JSON.parse(payload.toString('utf8')) as Encoded;
  const message = { key: body.k, value: body.v, headers: body.h, offset };
  return body.nb === undefined ? message : { ...message, notBefore: body.nb };
}

/** Payloads of the most recent appends kept for live delivery. */
const RECENT = 1024;

export class BusPartition {
  private readonly recent = new Map<number, Buffer>();
  private readonly listeners = new Set<() => void>();
  private visible: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly topic: string,
    readonly index: number,
    private readonly log: FramedLog,
    private readonly offsets: OffsetIndexFile,
  ) {}

  static async open(topic: string, index: number, path: string): Promise<BusPartition> {
    const offsets = await OffsetIndexFile.open(path.replace(/\.log$/, '.idx'));
    try {
      const log = await FramedLog.openFrom(path, {
        fsync: true,
        from: (unverified) => resumeIndexing(offsets, unverified),
        onRecords: (records) => {
          offsets.append(records.map((r) => r.offset));
          return offsets.drained();
        },
      });
      return new BusPartition(topic, index, log, offsets);
    } catch (error) {
      await offsets.close();
      throw error;
    }
  }

  /** The offset the next message will get: the number of visible messages. */
  get end(): number {
    return this.offsets.count;
  }

  /** Resolves once the payloads are durable and visible, in call order. */
  append(payloads: Buffer[]): Promise<void> {
    if (this.offsets.failure) return Promise.reject(indexFailure(this.offsets));
    const written = this.log.append(payloads);
    const shown = Promise.all([written, this.visible]).then(async ([positions]) => {
      if (this.offsets.failure) throw indexFailure(this.offsets);
      // Far behind on writing entries: wait, so that what is held in memory stays bounded.
      if (this.offsets.unwrittenCount >= MAX_UNWRITTEN_ENTRIES) await this.offsets.drained();
      const first = this.offsets.count;
      this.offsets.append(positions);
      payloads.forEach((payload, i) => this.recent.set(first + i, payload));
      for (const oldest of this.recent.keys()) {
        if (this.recent.size <= RECENT) break;
        this.recent.delete(oldest);
      }
      for (const listener of this.listeners) listener();
    });
    // A failed append must not hide the ones after it; its own caller still sees the failure.
    this.visible = shown.catch(() => undefined);
    return shown;
  }

  async read(offset: number): Promise<StoredMessage> {
    if (!(offset >= 0 && offset < this.end)) throw fail('invalid_state', `${this.topic}/${this.index} has no offset ${offset}`);
    return decode(this.recent.get(offset) ?? (await this.log.read(BigInt(await this.offsets.at(offset)))), offset);
  }

  /** Calls `listener` after every append becomes visible; returns the unsubscribe function. */
  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits for appends in flight, then closes the log. */
  async close(): Promise<void> {
    await this.visible;
    await this.log.close();
    await this.offsets.close();
  }
}

function indexFailure(offsets: OffsetIndexFile) {
  return fail('store_closed', `${offsets.path} refuses appends after a failed write: ${String(offsets.failure)}`);
}

/**
 * Keeps the index entries that still name whole records of this log and returns where the unindexed rest
 * of the log starts (a crash may have left the index short of the log, or with a garbage tail).
 */
async function resumeIndexing(offsets: OffsetIndexFile, log: FramedLog): Promise<bigint> {
  for (let count = await offsets.plausibleCount(Number(log.size)); count > 0; count -= 1) {
    const last = BigInt(await offsets.at(count - 1));
    const payload = await log.read(last).catch(() => undefined);
    if (payload !== undefined) {
      await offsets.truncate(count);
      return last + BigInt(FRAME_HEADER_BYTES + payload.length);
    }
  }
  await offsets.truncate(0);
  return 0n;
}
