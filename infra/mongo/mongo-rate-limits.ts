import { present } from '../../domain/shared/present.js';
import type { Db } from 'mongodb';
import type { CallRateLimits } from '../../domain/ports/call-rate-limits.port.js';
import { fail } from '../../domain/shared/errors.js';
import { isDuplicateKey } from './mongo-connect.js';

const WINDOW_MS = 60_000;
export const RATE_WINDOWS_COLLECTION = 'call_rate_windows';

/** One allowed call: slot `s` of the window `k` (key and minute), `_id` = `k|s`. */
interface CallSlot {
  _id: string;
  k: string;
  /** The window's start (ms since the epoch): old windows are deleted by it. */
  w: number;
}

/**
 * The external CallRateLimits: fixed windows per (key, minute) in MongoDB, shared by every instance on the
 * database. A window allows `perMinute` calls as `perMinute` numbered slots, and a call is allowed when it
 * inserts a free slot: the unique `_id` makes two instances racing for one slot end with one winner (the
 * other gets a duplicate key and picks another free slot), so the window never admits more than
 * `perMinute` calls in all. Not a counter with `$inc`: FerretDB 1.24 applies concurrent `$inc` updates and
 * `findOneAndUpdate` upserts as read-then-write and loses increments (measured: 60 concurrent `$inc` of one
 * document left 1), while its unique `_id` holds. Windows older than the previous minute are deleted at
 * most once a minute per instance; a window holds at most `perMinute` small documents.
 */
export function createMongoRateLimits(db: Db): CallRateLimits {
  const slots = db.collection<CallSlot>(RATE_WINDOWS_COLLECTION);
  let indexed: Promise<unknown> | null = null;
  let sweptAt = 0;

  /** Whether a free slot of window `k` could be taken; false once all `perMinute` are. */
  async function takeSlot(k: string, start: number, perMinute: number): Promise<boolean> {
    // each round either takes a slot or sees at least one more taken, so perMinute + 1 rounds settle it
    for (let round = 0; round <= perMinute; round++) {
      const taken = new Set((await slots.find({ k }, { projection: { _id: 1 } }).toArray()).map((slot) => slot._id));
      const free = Array.from({ length: perMinute }, (_, i) => `${k}|${i + 1}`).filter((id) => !taken.has(id));
      if (free.length === 0) return false;
      // a random free slot: concurrent callers who saw the same taken set rarely collide
      const pick = present(free[Math.floor(Math.random() * free.length)], 'free[Math.floor(Math.random() * free.length)]');
      try {
        await slots.insertOne({ _id: pick, k, w: start });
        return true;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    return false;
  }

  return {
    async take(key, perMinute, nowMs) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      let allowed: boolean;
      try {
        indexed ??= Promise.all([slots.createIndex({ k: 1 }), slots.createIndex({ w: 1 })]).catch(() => (indexed = null));
        await indexed;
        allowed = await takeSlot(`${key}|${start}`, start, perMinute);
      } catch (error) {
        throw fail(
          'backend_unavailable',
          `the shared rate-limit store did not answer: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (nowMs - sweptAt >= WINDOW_MS) {
        sweptAt = nowMs;
        void slots.deleteMany({ w: { $lt: start - WINDOW_MS } }).catch(() => (sweptAt = 0));
      }
      if (allowed) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - nowMs) / 1000)) };
    },
  };
}
