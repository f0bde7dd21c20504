import { mkdir } from 'node:fs/promises';
import type { CallRateLimits } from '../../domain/ports/call-rate-limits.port.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { MessageBus } from '../../domain/ports/message-bus.port.js';
import type { CheckpointStore, ReadStore } from '../../domain/ports/read-store.port.js';
import type { TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import { present } from '../../domain/shared/present.js';
import type { Config } from '../config.js';
import type { LmdbEventStore } from '../embedded/lmdb-event-store.js';
import type { LmdbReadStore } from '../embedded/lmdb-read-store.js';
import { embeddedTopology as embedded } from './embedded.js';
import { externalTopology as external } from './external.js';

export interface Ports {
  store: EventStore;
  /** The embedded store (the same one), whose appends a projection thread follows. */
  fileStore: LmdbEventStore | null;
  bus: MessageBus;
  readStore: ReadStore;
  /** The embedded read store (the same one), which shares its environment with a projection thread. */
  lmdbStore: LmdbReadStore | null;
  processorCheckpoints: CheckpointStore;
  /** The transfer graph store (LMDB under DATA_DIR/graph, or PostgreSQL). */
  graph: TransferGraphStore;
  /** x402 rate limits: counted in MongoDB when it is there, so every API instance shares them. */
  rateLimits?: CallRateLimits;
}

/**
 * The only place that chooses adapters, per port (config: EVENT_STORE, BUS, READ_STORE, GRAPH_STORE; MODE
 * sets their defaults), from the two topologies (embedded.ts, external.ts). What was opened before a
 * failure is closed again (the file store holds a directory lock).
 */
export async function openPorts(
  config: Config,
  /** A consumer group of the embedded bus whose subscription or checkpoint failed (its processor stops reading). */
  onBusError: (error: unknown) => void = () => undefined,
): Promise<Ports> {
  await mkdir(config.DATA_DIR, { recursive: true });
  const names = config.BUS === 'kafka' || config.READ_STORE === 'mongo' ? await external.names(config) : null;
  const opened: { close(): Promise<void> }[] = [];
  const track = <T extends { close(): Promise<void> }>(port: T): T => (opened.push(port), port);
  try {
    const fileStore = config.EVENT_STORE === 'embedded' ? track(await embedded.eventStore(config)) : null;
    const store = fileStore ?? track(await external.eventStore(config));
    const mongo = names && config.READ_STORE === 'mongo' ? await external.mongo(config, names) : null;
    const lmdbStore = mongo ? null : track(await embedded.readStore(config));
    const readStore = lmdbStore ?? track(present(mongo, 'READ_STORE=mongo opened MongoDB').readStore);
    // The embedded event store's environment holds its checkpoints (one file set); it is closed with the store.
    const processorCheckpoints = mongo ? track(mongo.checkpoints) : (fileStore?.checkpoints ?? track(await embedded.checkpoints(config)));
    const bus = track(
      names && config.BUS === 'kafka' ? await external.bus(config, names) : embedded.bus(store, processorCheckpoints, onBusError),
    );
    const graph = track(config.GRAPH_STORE === 'postgres' ? await external.graph(config) : await embedded.graph(config));
    return { store, fileStore, bus, readStore, lmdbStore, processorCheckpoints, graph, ...(mongo ? { rateLimits: mongo.rateLimits } : {}) };
  } catch (error) {
    await Promise.allSettled(opened.reverse().map((port) => port.close()));
    throw error;
  }
}
