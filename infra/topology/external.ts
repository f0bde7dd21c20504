import { present } from '../../domain/shared/present.js';
import type { Config } from '../config.js';
import { openSharedEventStore } from '../external/shared-event-store.js';
import { externalNames } from '../external/namespace.js';
import { openKafkaMessageBus } from '../kafka/kafka-message-bus.js';
import { openMongoStores } from '../mongo/mongo-stores.js';
import { openPostgresGraphStore } from '../postgres/pg-graph-store.js';

type Names = Awaited<ReturnType<typeof externalNames>>;

/**
 * The external mode (MODE=external, production): shared servers, so any number of processes, each with a
 * ROLE. Every adapter checks its server at open within CONNECT_TIMEOUT_MS.
 */
export const externalTopology = {
  /** The names of topics, groups and the database shared by one deployment. */
  names: (config: Config): Promise<Names> => externalNames(config),
  /** EventStoreDB (EVENT_STORE=esdb) or PostgreSQL (EVENT_STORE=postgres). */
  eventStore: (config: Config) => openSharedEventStore(config),
  /** Kafka (BUS=kafka). */
  bus: (config: Config, names: Names) =>
    openKafkaMessageBus({
      brokers: present(config.KAFKA_BROKERS, 'adapter-config refuses BUS=kafka without KAFKA_BROKERS')
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
      prefix: names.kafkaPrefix,
      partitions: config.KAFKA_PARTITIONS,
      sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
      connectTimeoutMs: config.CONNECT_TIMEOUT_MS,
    }),
  /** MongoDB (READ_STORE=mongo): the read models, the relay's checkpoints and the x402 call counters. */
  mongo: (config: Config, names: Names) =>
    openMongoStores(
      present(config.MONGO_URL, 'adapter-config refuses READ_STORE=mongo without MONGO_URL'),
      names.mongoDb,
      config.CONNECT_TIMEOUT_MS,
    ),
  /** The transfer graph on PostgreSQL (GRAPH_STORE=postgres), shared by every process. */
  graph: (config: Config) =>
    openPostgresGraphStore({
      url: present(config.POSTGRES_URL, 'adapter-config refuses GRAPH_STORE=postgres without POSTGRES_URL'),
      schema: config.GRAPH_POSTGRES_SCHEMA,
      superNodeBound: config.SVC_GRAPH_SUPER_NODE_BOUND,
      poolSize: config.POSTGRES_POOL_SIZE,
      connectTimeoutMs: config.CONNECT_TIMEOUT_MS,
    }),
};
