import type { CheckpointStore, ReadStore } from '../../domain/ports/read-store.port.js';
import type { CallRateLimits } from '../../domain/ports/call-rate-limits.port.js';
import { createMongoCheckpointStore } from './mongo-checkpoint-store.js';
import { checkDatabaseName, connectMongo } from './mongo-connect.js';
import { createMongoRateLimits } from './mongo-rate-limits.js';
import { createMongoReadStore } from './mongo-read-store.js';

/**
 * The read models and the checkpoints of one database on one client, closed when both are closed; the
 * shared call counters (x402 rate limits) use the same client while it is open.
 */
export async function openMongoStores(
  url: string,
  database: string,
  timeoutMs?: number,
): Promise<{ readStore: ReadStore; checkpoints: CheckpointStore; rateLimits: CallRateLimits }> {
  const client = await connectMongo(url, timeoutMs);
  const db = client.db(checkDatabaseName(database));
  let open = 2;
  const release = async () => {
    open -= 1;
    if (open === 0) await client.close();
  };
  return {
    readStore: createMongoReadStore(db, { onClose: release }),
    checkpoints: createMongoCheckpointStore(db, { onClose: release }),
    rateLimits: createMongoRateLimits(db),
  };
}
