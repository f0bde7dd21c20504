import type { Db } from 'mongodb';
import type { CheckpointStore } from '../../domain/ports/read-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { isDuplicateKey, positionKey, positionOfKey } from './mongo-connect.js';

/**
 * Checkpoints in their own collection, one document per name. Compare-and-set without transactions: the
 * first store is an insert (a competing insert fails on the `_id` unique index), later ones an update
 * whose filter names the previous checkpoint.
 */

export const CHECKPOINTS_COLLECTION = '_checkpoints';

interface CheckpointDoc {
  _id: string;
  p: string;
}

export function createMongoCheckpointStore(db: Db, options: { collection?: string; onClose?: () => Promise<void> } = {}): CheckpointStore {
  const checkpoints = db.collection<CheckpointDoc>(options.collection ?? CHECKPOINTS_COLLECTION);
  let closed = false;
  const isOpen = () => {
    if (closed) throw fail('store_closed', 'the checkpoint store is closed');
  };
  return {
    async load(name) {
      isOpen();
      const doc = await checkpoints.findOne({ _id: name });
      return doc ? positionOfKey(doc.p) : null;
    },
    async store(name, next, previous) {
      isOpen();
      if (previous === null) {
        try {
          await checkpoints.insertOne({ _id: name, p: positionKey(next) });
          return 'ok';
        } catch (error) {
          if (isDuplicateKey(error)) return 'mismatch';
          throw error;
        }
      }
      const result = await checkpoints.updateOne({ _id: name, p: positionKey(previous) }, { $set: { p: positionKey(next) } });
      return result.matchedCount === 1 ? 'ok' : 'mismatch';
    },
    async close() {
      if (closed) return;
      closed = true;
      await options.onClose?.();
    },
  };
}
