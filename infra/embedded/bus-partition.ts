import type { BusMessage, MessageHeaders } from '../../domain/ports/message-bus.port.js';
import { fail } from '../../domain/shared/errors.js';
import { FramedLog } from './framed-log.js';

/**
 * One topic-partition of the embedded bus: a framed log file plus an in-memory index from message offset
 * (0, 1, 2, … as in Kafka) to the record's byte offset. A message becomes visible to consumers only once
 * its append is durable, and always in log order even when appends resolve together (group commit).
 * Recently appended payloads stay in memory so live delivery does not touch the disk.
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

const RECENT = 1024;

export class BusPartition {
  private readonly recent = new Map<number, Buffer>();
  private readonly listeners = new Set<() => void>();
  private visible: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly topic: string,
    readonly index: number,
    private readonly log: FramedLog,
    private readonly positions: bigint[],
  ) {}

  static async open(topic: string, index: number, path: string): Promise<BusPartition> {
    const { log, records } = await FramedLog.open(path, { fsync: true });
    const partition = new BusPartition(topic, index, log, records.map((r) => r.offset));
    records.slice(-RECENT).forEach((r, i, tail) => partition.recent.set(records.length - tail.length + i, r.payload));
    return partition;
  }

  /** The offset the next message will get: the number of visible messages. */
  get end(): number {
    return this.positions.length;
  }

  /** Resolves once the payloads are durable and visible, in call order. */
  append(payloads: Buffer[]): Promise<void> {
    const written = this.log.append(payloads);
    const shown = Promise.all([written, this.visible]).then(([positions]) => {
      for (const [i, position] of positions.entries()) {
        this.recent.set(this.positions.length, payloads[i]!);
        this.positions.push(position);
      }
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
    const position = this.positions[offset];
    if (position === undefined) throw fail('invalid_state', `${this.topic}/${this.index} has no offset ${offset}`);
    return decode(this.recent.get(offset) ?? (await this.log.read(position)), offset);
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
  }
}
