import { join } from 'node:path';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { CheckpointStore } from '../../domain/ports/read-store.port.js';
import type { Config } from '../config.js';
import { openLmdbGraphStore } from '../chain/graph/lmdb-graph-store.js';
import { openLmdbCheckpointStore } from '../embedded/lmdb-checkpoint-store.js';
import { openLmdbEventStore } from '../embedded/lmdb-event-store.js';
import { openLmdbReadStore } from '../embedded/lmdb-read-store.js';
import { openLogMessageBus } from '../embedded/log-bus/log-message-bus.js';

type Settings = Pick<Config, 'DATA_DIR' | 'SVC_FSYNC' | 'SVC_GRAPH_SUPER_NODE_BOUND'>;

/** The embedded store's directory: one LMDB environment (store.mdb) with the events, their stream index and the checkpoints. */
export const storeDir = (config: Pick<Config, 'DATA_DIR'>) => join(config.DATA_DIR, 'store');

/**
 * The embedded mode (MODE=embedded, the default): one process, every port a set of files under DATA_DIR
 * that this process locks. Each port can still be chosen on its own (open-ports.ts).
 */
export const embeddedTopology = {
  /**
   * The events, their stream index and the checkpoints in one LMDB environment under DATA_DIR/store, the
   * appends of an event-loop turn committed (and, with SVC_FSYNC=1, synced) as one transaction; a
   * projection thread can follow its appends. A framed log left by an earlier version under DATA_DIR/events
   * (and its DATA_DIR/checkpoints) is migrated into it at the first open.
   */
  eventStore: (config: Settings) =>
    openLmdbEventStore(storeDir(config), { fsync: config.SVC_FSYNC === '1', legacyDataDir: config.DATA_DIR }),
  /**
   * No bus of its own: the processors' consumer groups read the event log through checkpointed subscriptions,
   * and what is published directly (webhook retries, dead letters, chain transfers) is appended to the log.
   */
  bus: (store: EventStore, checkpoints: CheckpointStore, onError: (error: unknown) => void) =>
    openLogMessageBus({ store, checkpoints, onError }),
  /** The read models in LMDB under DATA_DIR/read-models, folded on a thread of their own (READ_STORE=embedded). */
  readStore: (config: Settings) => openLmdbReadStore(join(config.DATA_DIR, 'read-models')),
  /**
   * The relay's checkpoints when the event store is not the embedded one (whose environment holds them):
   * the same LMDB environment under DATA_DIR/store, holding checkpoints only.
   */
  checkpoints: (config: Settings) => openLmdbCheckpointStore(storeDir(config), { legacyDataDir: config.DATA_DIR }),
  /** The transfer graph in LMDB under DATA_DIR/graph (GRAPH_STORE=embedded, the default in both modes). */
  graph: (config: Settings) =>
    openLmdbGraphStore({ dir: join(config.DATA_DIR, 'graph'), superNodeBound: config.SVC_GRAPH_SUPER_NODE_BOUND }),
};
