import { randomUUID } from 'node:crypto';
import { afterAll, vi } from 'vitest';
import { eventStoreContract } from '../contracts/event-store.contract.js';
import { messageBusContract } from '../contracts/message-bus.contract.js';
import { checkpointStoreContract, readStoreContract } from '../contracts/read-store.contract.js';
import { openEsdbEventStore } from '../../infra/esdb/esdb-event-store.js';
import { openKafkaMessageBus } from '../../infra/kafka/kafka-message-bus.js';
import { openMongoStores } from '../../infra/mongo/mongo-stores.js';
import { freePort } from '../support/processes.js';
import { skippedSuite } from './external-env.js';

/**
 * The contract suites on the real images (EventStoreDB, Apache Kafka, MongoDB) through testcontainers,
 * wherever a container runtime exists. This is the only place the EventStoreDB adapter meets a server: no
 * EventStoreDB can run on the project's machines (a .NET server shipped as Docker images and packages on
 * its vendor's own repository, none of which these machines reach). Without a runtime the check fails in
 * milliseconds and each suite shows as one skipped test naming the reason.
 */

const IMAGES = {
  esdb: process.env.ESDB_IMAGE ?? 'eventstore/eventstore:24.10',
  kafka: process.env.KAFKA_IMAGE ?? 'apache/kafka:3.9.1',
  mongo: process.env.MONGO_IMAGE ?? 'mongo:7.0',
};

async function runtimeUnavailable(): Promise<string | null> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const noRuntime = await runtimeUnavailable();
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.allSettled(stops.map((stop) => stop()));
});

/** Starts once, on first use, so a suite that is filtered out pulls no image. */
function lazy<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => (started ??= start());
}

const esdb = lazy(async () => {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(IMAGES.esdb)
    .withEnvironment({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_MEM_DB: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
      EVENTSTORE_CLUSTER_SIZE: '1',
    })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
    .withStartupTimeout(180_000)
    .start();
  stops.push(() => container.stop());
  return `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
});

const kafka = lazy(async () => {
  const { GenericContainer, Wait } = await import('testcontainers');
  // The advertised listener must carry the port the host sees, so it is chosen before the start.
  const port = await freePort();
  const container = await new GenericContainer(IMAGES.kafka)
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093,HOST://:19094',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://localhost:9092,HOST://127.0.0.1:${port}`,
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,HOST:PLAINTEXT',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    })
    .withExposedPorts({ container: 19094, host: port })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started|Transition from STARTING to STARTED/))
    .withStartupTimeout(180_000)
    .start();
  stops.push(() => container.stop());
  return `127.0.0.1:${port}`;
});

const mongo = lazy(async () => {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(IMAGES.mongo)
    .withExposedPorts(27017)
    .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
    .withStartupTimeout(180_000)
    .start();
  stops.push(() => container.stop());
  return `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`;
});

if (noRuntime !== null) {
  const reason = `no container runtime (${noRuntime}); EventStoreDB cannot run on this machine at all, Kafka and FerretDB run in npm run test:external`;
  skippedSuite(`EventStore contract: EventStoreDB (${IMAGES.esdb})`, reason);
  skippedSuite(`MessageBus contract: Kafka (${IMAGES.kafka})`, reason);
  skippedSuite(`ReadStore and CheckpointStore contracts: MongoDB (${IMAGES.mongo})`, reason);
} else {
  // Pulling an image can take minutes the first time.
  vi.setConfig({ hookTimeout: 600_000, testTimeout: 120_000 });
  eventStoreContract(`EventStoreDB (${IMAGES.esdb})`, async () => openEsdbEventStore({ url: await esdb(), connectTimeoutMs: 5000 }));
  messageBusContract(`Kafka (${IMAGES.kafka})`, async () =>
    openKafkaMessageBus({ brokers: [await kafka()], prefix: `contract-${randomUUID().slice(0, 8)}.`, partitions: 2 }),
  );
  const openMongo = async () => openMongoStores(await mongo(), `contract_${randomUUID().slice(0, 8)}`, 5000);
  readStoreContract(`MongoDB (${IMAGES.mongo})`, async () => (await openMongo()).readStore);
  checkpointStoreContract(`MongoDB (${IMAGES.mongo})`, async () => (await openMongo()).checkpoints);
}
