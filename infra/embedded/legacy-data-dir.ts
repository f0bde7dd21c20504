import { type FileHandle, open, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { fail } from '../../domain/shared/errors.js';
import { lockDirectory } from './directory-lock.js';
import { LmdbStreamIndex } from './lmdb-stream-index.js';
import type { StoreEnvironment } from './store-environment.js';

/**
 * The data directory as the framed-log store wrote it (before one LMDB store held everything), read once
 * to migrate it: DATA_DIR/events/events.log (frames: magic u32 BE | payload length u32 BE | CRC32 of the
 * length bytes and the payload u32 BE | payload, one JSON append per frame) and its derived index files,
 * and DATA_DIR/checkpoints/checkpoints.json. Every event keeps its position (a frame's byte offset is its
 * append's commit), so checkpoints, read models and anything else that remembers a position stay valid.
 */
const LEGACY_EVENTS = 'events';
const LEGACY_LOG = 'events.log';
const LEGACY_CHECKPOINTS = join('checkpoints', 'checkpoints.json');
/** What a migrated legacy directory is renamed to (kept until the operator deletes it, docs/operations.md). */
const MIGRATED_SUFFIX = '.migrated';
const FRAME_MAGIC = 0x52534631; // "RSF1"
const HEADER = 12;
/** Bytes read from the legacy log at a time, and appends written per transaction while migrating. */
const READ_CHUNK = 8 << 20;
const APPENDS_PER_TRANSACTION = 4096;

interface LegacyAppend {
  readonly stream: string;
  readonly created: number;
  readonly events: readonly { readonly id: string }[];
}

/**
 * Moves what the framed-log store left in `dataDir` into `stored`, then renames the old directories so
 * that it happens once. Appends go over a few thousand per transaction, in log order, skipping those the
 * store holds already: a migration cut short by a crash resumes where it stopped. Checkpoints go last.
 */
export async function migrateLegacyDataDir(dataDir: string, stored: StoreEnvironment): Promise<void> {
  const eventsDir = join(dataDir, LEGACY_EVENTS);
  const hasLog = await exists(join(eventsDir, LEGACY_LOG));
  if (hasLog) {
    // A process of the previous version still running on this directory holds this lock.
    const lock = await lockDirectory(eventsDir);
    try {
      await migrateLog(join(eventsDir, LEGACY_LOG), stored);
    } finally {
      await lock.release();
    }
  }
  await migrateLegacyCheckpoints(dataDir, stored);
  if (hasLog) await rename(eventsDir, eventsDir + MIGRATED_SUFFIX);
}

/** Copies DATA_DIR/checkpoints/checkpoints.json, if any, into the store (one transaction), then renames its directory. */
export async function migrateLegacyCheckpoints(dataDir: string, stored: StoreEnvironment): Promise<void> {
  const path = join(dataDir, LEGACY_CHECKPOINTS);
  if (!(await exists(path))) return;
  let checkpoints: [string, readonly [string, string]][];
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Record<string, { commit: string; prepare: string }>;
    checkpoints = Object.entries(parsed).map(([name, p]) => [name, [String(BigInt(p.commit)), String(BigInt(p.prepare))]]);
  } catch (error) {
    throw fail('store_corrupt', `${path} does not hold checkpoints`, { cause: String(error) });
  }
  await stored.env.transaction(() => {
    for (const [name, position] of checkpoints) stored.checkpoints.putSync(name, position);
  });
  await rename(join(dataDir, 'checkpoints'), join(dataDir, 'checkpoints' + MIGRATED_SUFFIX));
}

async function migrateLog(path: string, stored: StoreEnvironment): Promise<void> {
  const index = new LmdbStreamIndex(stored.streams);
  let done = -1;
  for (const { key } of stored.events.getRange({ reverse: true, limit: 1 })) done = key;
  let batch: { offset: number; append: LegacyAppend; events: string }[] = [];
  const write = async () => {
    const appends = batch;
    batch = [];
    await stored.env.transaction(() => {
      for (const { offset, append, events } of appends) {
        const first = index.revision(append.stream) + 1;
        stored.events.putSync(offset, [append.stream, append.created, first, events], { append: true });
        index.add(
          append.stream,
          first,
          offset,
          append.events.map((event) => event.id),
        );
      }
    });
  };
  for await (const { offset, payload } of legacyFrames(path)) {
    if (offset <= done) continue;
    const append = decodeLegacyAppend(payload, `${path} at byte offset ${offset}`);
    batch.push({ offset, append, events: JSON.stringify(append.events) });
    if (batch.length >= APPENDS_PER_TRANSACTION) await write();
  }
  if (batch.length > 0) await write();
}

function decodeLegacyAppend(payload: Buffer, where: string): LegacyAppend {
  let json: Partial<LegacyAppend>;
  try {
    json = JSON.parse(payload.toString('utf8')) as Partial<LegacyAppend>;
  } catch (error) {
    throw fail('store_corrupt', `${where}: record is not JSON (${String(error)})`);
  }
  if (typeof json?.stream !== 'string' || typeof json.created !== 'number' || !Array.isArray(json.events) || json.events.length === 0)
    throw fail('store_corrupt', `${where}: record is not an append`);
  return json as LegacyAppend;
}

/** 'ok' with the payload's length, 'incomplete' when the buffer ends inside the frame, 'bad' otherwise. */
function checkFrame(buf: Buffer, at: number): { kind: 'ok'; length: number } | { kind: 'incomplete'; needed: number } | { kind: 'bad' } {
  if (buf.length - at < HEADER)
    return buf.length - at >= 4 && buf.readUInt32BE(at) !== FRAME_MAGIC ? { kind: 'bad' } : { kind: 'incomplete', needed: HEADER };
  if (buf.readUInt32BE(at) !== FRAME_MAGIC) return { kind: 'bad' };
  const length = buf.readUInt32BE(at + 4);
  if (buf.length - at < HEADER + length) return { kind: 'incomplete', needed: HEADER + length };
  const payload = buf.subarray(at + HEADER, at + HEADER + length);
  return crc32(payload, crc32(buf.subarray(at + 4, at + 8))) === buf.readUInt32BE(at + 8) ? { kind: 'ok', length } : { kind: 'bad' };
}

/**
 * The log's frames in order, with their byte offsets. A log ends at its first frame that is cut short or
 * does not check (a write the crash interrupted), unless a whole frame follows it: that is corruption.
 */
async function* legacyFrames(path: string): AsyncGenerator<{ offset: number; payload: Buffer }> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    let buffered = Buffer.alloc(0);
    let base = 0;
    for (let offset = 0; offset < size;) {
      let check = checkFrame(buffered, offset - base);
      while (check.kind === 'incomplete' && base + buffered.length < size) {
        const more = await readAt(file, base + buffered.length, Math.max(READ_CHUNK, check.needed));
        buffered = Buffer.concat([buffered.subarray(offset - base), more]);
        base = offset;
        check = checkFrame(buffered, 0);
      }
      if (check.kind !== 'ok') return await assertTornTail(file, offset, size, path);
      const start = offset - base + HEADER;
      yield { offset, payload: buffered.subarray(start, start + check.length) };
      offset += HEADER + check.length;
    }
  } finally {
    await file.close();
  }
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

async function assertTornTail(file: FileHandle, offset: number, size: number, path: string): Promise<void> {
  const rest = await readAt(file, offset, size - offset);
  const magic = Buffer.alloc(4);
  magic.writeUInt32BE(FRAME_MAGIC);
  for (let at = rest.indexOf(magic, 1); at !== -1; at = rest.indexOf(magic, at + 1))
    if (checkFrame(rest, at).kind === 'ok')
      throw fail('store_corrupt', `${path}: corrupt record at byte offset ${offset}`, { path, offset });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}
