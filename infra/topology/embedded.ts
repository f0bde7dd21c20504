import { join } from 'node:path';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { CheckpointStore, ReadStore } from '../../domain/ports/read-store.port.js';
import type { Config } from '../config.js';
import { openLmdbGraphStore } from '../chain/graph/lmdb-graph-store.js';
import { openFileCheckpointStore } from '../embedded/file-checkpoint-store.js';
import { openFileEventStore } from '../embedded/file-event-store.js';
import { openLmdbReadStore } from '../embedded/lmdb-read-store.js';
import { openLogMessageBus } from '../embedded/log-bus/log-message-bus.js';
import { createMemoryReadStore } from '../embedded/memory-read-store.js';

type Settings = Pick<Config, 'DATA_DIR' | 'SVC_FSYNC' | 'SVC_GRAPH_SUPER_NODE_BOUND'>;

/**
 * The embedded mode (MODE=embedded, the default): one process, every port a set of files under DATA_DIR
 * that this process locks. Each port can still be chosen on its own (open-ports.ts).
 */
export const embeddedTopology = {
  /** The framed log under DATA_DIR/events; a projection thread can follow its appends. */
  eventStore: (config: Settings) => openFileEventStore(join(config.DATA_DIR, 'events'), { fsync: config.SVC_FSYNC === '1' }),
  /**
   * No bus of its own: the processors' consumer groups read the event log through checkpointed subscriptions,
   * and what is published directly (webhook retries, dead letters, chain transfers) is appended to the log.
   */
  bus: (store: EventStore, checkpoints: CheckpointStore) => openLogMessageBus({ store, checkpoints }),
  /** The read models in LMDB under DATA_DIR/read-models, folded on a thread of their own (READ_STORE=embedded). */
  readStore: (config: Settings) => openLmdbReadStore(join(config.DATA_DIR, 'read-models')),
  /** Maps rebuilt by a full replay at each start (READ_STORE=memory; tests). */
  memoryReadStore: (): ReadStore => createMemoryReadStore(),
  /** The consumer groups' checkpoints (and the relay's, with Kafka) under DATA_DIR/checkpoints. */
  checkpoints: (config: Settings) => openFileCheckpointStore(join(config.DATA_DIR, 'checkpoints')),
  /** The transfer graph in LMDB under DATA_DIR/graph (GRAPH_STORE=embedded, the default in both modes). */
  graph: (config: Settings) =>
    openLmdbGraphStore({ dir: join(config.DATA_DIR, 'graph'), superNodeBound: config.SVC_GRAPH_SUPER_NODE_BOUND }),
};
