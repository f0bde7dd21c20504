import { join } from 'node:path';
import type { Position } from '../../domain/ports/event-store.port.js';
import type { CheckpointStore } from '../../domain/ports/read-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { AtomicJsonFile } from './atomic-json-file.js';
import { samePosition } from './memory-checkpoint-store.js';

/**
 * Checkpoints that survive restarts, for processors whose side effects must not be redone from the start:
 * one JSON file (`checkpoints.json` in `dir`) rewritten atomically on every successful compare-and-set.
 * The compare-and-set is decided in memory, so this store assumes it is the only writer of its directory.
 */

type Persisted = Record<string, { commit: string; prepare: string }>;

function parse(value: unknown, path: string): Map<string, Position> {
  const checkpoints = new Map<string, Position>();
  if (value === undefined) return checkpoints;
  try {
    for (const [name, p] of Object.entries(value as Persisted)) {
      checkpoints.set(name, { commit: BigInt(p.commit), prepare: BigInt(p.prepare) });
    }
  } catch (error) {
    throw fail('store_corrupt', `${path} does not hold checkpoints`, { cause: String(error) });
  }
  return checkpoints;
}

export async function openFileCheckpointStore(dir: string): Promise<CheckpointStore> {
  const path = join(dir, 'checkpoints.json');
  const { file, value } = await AtomicJsonFile.open(path);
  const checkpoints = parse(value, path);
  let closed = false;
  /** After a failed write memory may be ahead of the disk: refuse everything rather than drift. */
  let broken: unknown;
  const isUsable = (): void => {
    if (closed) throw fail('store_closed', 'the checkpoint store is closed');
    if (broken !== undefined) throw fail('store_corrupt', 'an earlier checkpoint write failed', { cause: String(broken) });
  };
  const snapshot = (): Persisted =>
    Object.fromEntries([...checkpoints].map(([name, p]) => [name, { commit: String(p.commit), prepare: String(p.prepare) }]));

  return {
    async load(name) {
      isUsable();
      return checkpoints.get(name) ?? null;
    },
    async store(name, next, previous) {
      isUsable();
      if (!samePosition(checkpoints.get(name) ?? null, previous)) return 'mismatch';
      checkpoints.set(name, { commit: next.commit, prepare: next.prepare });
      try {
        await file.write(snapshot());
      } catch (error) {
        broken = error;
        throw error;
      }
      return 'ok';
    },
    async close() {
      closed = true;
      await file.flush();
    },
  };
}
