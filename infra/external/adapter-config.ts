import { z } from 'zod';
import { fail } from '../../domain/shared/errors.js';
import { isAllInOne, isRole } from '../topology/role.js';

/**
 * Which adapter serves each port, and where the servers are. `MODE` only sets the defaults (embedded: file
 * log, file bus, LMDB read models; external: EventStoreDB, Kafka, MongoDB); each port can be chosen on
 * its own (the event store on PostgreSQL instead of EventStoreDB: EVENT_STORE=postgres). Combinations that cannot work are refused at start with a message saying why.
 */
export const adapterSettings = {
  MODE: z.enum(['embedded', 'external']).default('embedded'),
  /** The components this process runs (infra/topology/role.ts); anything less than all of them needs shared servers. */
  ROLE: z.string().default('all').refine(isRole, 'is `all` or a comma-separated list of api, projections, processors'),
  EVENT_STORE: z.enum(['embedded', 'esdb', 'postgres']).optional(),
  BUS: z.enum(['embedded', 'kafka']).optional(),
  /** `embedded`: LMDB files under DATA_DIR/read-models; `mongo`: MongoDB (or FerretDB) at MONGO_URL. */
  READ_STORE: z.enum(['embedded', 'mongo']).optional(),
  /**
   * Names this process's projection checkpoint in a shared read store, so a restarted instance resumes where
   * it stopped (default: the host name; give each replica of a role a stable, distinct one).
   */
  INSTANCE_ID: z
    .string()
    .regex(/^[a-zA-Z0-9._-]{1,64}$/)
    .optional(),
  /** e.g. esdb://127.0.0.1:2113?tls=false */
  ESDB_URL: z.string().min(1).optional(),
  /** e.g. postgres://svc:secret@10.0.0.7:5432/risk_screening */
  POSTGRES_URL: z.string().min(1).optional(),
  /** The schema of the PostgreSQL event store's tables (created and migrated at start). */
  POSTGRES_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/)
    .default('event_store'),
  /** Connections of each process's pool to PostgreSQL (one more listens for appends). */
  POSTGRES_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Where the transfer graph lives: `embedded` (LMDB under DATA_DIR/graph, one process) or `postgres` (on
   * POSTGRES_URL, shared by every ingesting, folding and searching process of a deployment).
   */
  GRAPH_STORE: z.enum(['embedded', 'postgres']).default('embedded'),
  /** The schema of the PostgreSQL graph store's tables (created and migrated at start). */
  GRAPH_POSTGRES_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/)
    .default('transfer_graph'),
  /** Comma-separated host:port list, e.g. 127.0.0.1:9092 */
  KAFKA_BROKERS: z.string().min(1).optional(),
  /** Prefix of every topic and consumer group (several services on one cluster). */
  KAFKA_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9._-]*$/)
    .optional(),
  KAFKA_PARTITIONS: z.coerce.number().int().min(1).max(1000).default(4),
  /** How long a dead processor holds its partitions before the group rebalances (Kafka's minimum is 6 s). */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6000).max(300_000).default(30_000),
  /** e.g. mongodb://127.0.0.1:27017/?directConnection=true */
  MONGO_URL: z.string().min(1).optional(),
  MONGO_DB: z
    .string()
    .regex(/^[a-zA-Z0-9_-]{1,63}$/)
    .optional(),
  /** Bound on every start-time connection check: an unreachable server fails the start this fast. */
  CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
};

type EventStoreChoice = 'embedded' | 'esdb' | 'postgres';

interface Settings {
  MODE: 'embedded' | 'external';
  ROLE: string;
  EVENT_STORE?: EventStoreChoice | undefined;
  BUS?: 'embedded' | 'kafka' | undefined;
  READ_STORE?: 'embedded' | 'mongo' | undefined;
  ESDB_URL?: string | undefined;
  POSTGRES_URL?: string | undefined;
  GRAPH_STORE?: 'embedded' | 'postgres' | undefined;
  KAFKA_BROKERS?: string | undefined;
  MONGO_URL?: string | undefined;
}

export type Resolved<C extends Settings> = Omit<C, 'EVENT_STORE' | 'BUS' | 'READ_STORE'> & {
  EVENT_STORE: EventStoreChoice;
  BUS: 'embedded' | 'kafka';
  READ_STORE: 'embedded' | 'mongo';
};

export function resolveAdapters<C extends Settings>(config: C): Resolved<C> {
  const external = config.MODE === 'external';
  const resolved = {
    ...config,
    EVENT_STORE: config.EVENT_STORE ?? (external ? 'esdb' : 'embedded'),
    BUS: config.BUS ?? (external ? 'kafka' : 'embedded'),
    READ_STORE: config.READ_STORE ?? (external ? 'mongo' : 'embedded'),
  } as Resolved<C>;
  const problems: string[] = [];
  if (resolved.EVENT_STORE === 'esdb' && !config.ESDB_URL) problems.push('EVENT_STORE=esdb needs ESDB_URL');
  if (resolved.EVENT_STORE === 'postgres' && !config.POSTGRES_URL) problems.push('EVENT_STORE=postgres needs POSTGRES_URL');
  if (config.GRAPH_STORE === 'postgres' && !config.POSTGRES_URL) problems.push('GRAPH_STORE=postgres needs POSTGRES_URL');
  if (resolved.BUS === 'kafka' && !config.KAFKA_BROKERS) problems.push('BUS=kafka needs KAFKA_BROKERS');
  if (resolved.READ_STORE === 'mongo' && !config.MONGO_URL) problems.push('READ_STORE=mongo needs MONGO_URL');
  if (!isAllInOne(config.ROLE)) {
    // Separate processes share nothing but servers: the embedded log and bus are files one process locks,
    // and the embedded read models are files of the process that folds them.
    if (resolved.EVENT_STORE === 'embedded')
      problems.push(`ROLE=${config.ROLE} needs EVENT_STORE=esdb or postgres (the embedded log belongs to one process)`);
    if (resolved.BUS !== 'kafka') problems.push(`ROLE=${config.ROLE} needs BUS=kafka (the embedded bus belongs to one process)`);
    if (resolved.READ_STORE !== 'mongo')
      problems.push(`ROLE=${config.ROLE} needs READ_STORE=mongo (embedded read models belong to one process)`);
  }
  if (problems.length > 0) throw fail('config_invalid', `invalid configuration: ${problems.join('; ')}`);
  return resolved;
}
