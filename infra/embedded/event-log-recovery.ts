import { present } from '../../domain/shared/present.js';
import { decodeAppend } from './event-record.codec.js';
import { FRAME_HEADER_BYTES } from './frame.codec.js';
import type { FramedLog, LogRecord } from './framed-log.js';
import type { IndexMark, StreamIndex } from './stream-index.js';

/*
 * Opening the event store: the index covers the log up to its mark, so only the log's tail past the mark is
 * read and indexed (after a crash: the appends written but not yet indexed; for a directory written before
 * the index existed: the whole log, once).
 */

/** Where indexing must resume: the mark, unless the log is not the one indexed (then from scratch). */
export async function unindexedTail(index: StreamIndex, log: FramedLog): Promise<bigint> {
  const mark = index.mark;
  if (mark === undefined) return 0n;
  if (await markFitsLog(mark, log)) return BigInt(mark.end);
  await index.clear();
  return 0n;
}

/** The mark's last record must be a whole record of this log that ends exactly at the mark. */
async function markFitsLog(mark: IndexMark, log: FramedLog): Promise<boolean> {
  if (mark.end > Number(log.size)) return false;
  if (mark.last === null) return mark.end === 0;
  try {
    const payload = await log.read(BigInt(mark.last.commit));
    return mark.last.commit + FRAME_HEADER_BYTES + payload.length === mark.end;
  } catch {
    return false;
  }
}

export async function indexRecords(index: StreamIndex, records: readonly LogRecord[], path: string): Promise<void> {
  const appends = records.map(({ offset, payload }) => {
    const { stream, events, first } = decodeAppend(payload, `${path} at byte offset ${offset}`);
    return { offset: Number(offset), stream, ids: events.map((event) => event.id), numbered: first !== undefined };
  });
  const last = present(records[records.length - 1], 'the log reader hands over non-empty chunks');
  // Not awaited: the next chunk is read while this one commits (the opener waits for `index.settled()`).
  const { committed } = await index.add(appends, Number(last.offset) + FRAME_HEADER_BYTES + last.payload.length);
  committed.catch(() => undefined);
}
