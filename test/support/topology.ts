import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import { openPostgresEventStore } from '../../infra/postgres/pg-event-store.js';
import { freePort, spawnTsx, stop } from './processes.js';

/**
 * The production topology as separate OS processes, each started as production starts it (`infra/main.ts`
 * with a ROLE): one projections process, API processes and processor processes, on a PostgreSQL event
 * store, Kafka and a MongoDB-wire server, with names of their own on those servers (a schema, a topic
 * prefix, a database). Each process keeps its data directory and port across a kill -9 and restart.
 * Used by the topology test and bench:topology.
 */

export type Role = 'api' | 'processors' | 'projections';

export interface RoleProcess {
  readonly name: string;
  readonly role: Role;
  readonly port: number;
  readonly dataDir: string;
  readonly url: string;
  /** Everything it printed since its last start (lifecycle lines, warnings). */
  output(): string;
  isRunning(): boolean;
  pid(): number | undefined;
  kill9(): Promise<void>;
  /** Starts it again on the same data directory, port and INSTANCE_ID; resolves once it listens. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface Servers {
  readonly postgresUrl: string;
  readonly kafkaBrokers: string;
  readonly mongoUrl: string;
}

export interface Topology {
  /** The environment every process shares (servers and names), for CLI runs and audits. */
  readonly env: Record<string, string>;
  readonly projections: RoleProcess;
  readonly apis: readonly RoleProcess[];
  readonly processors: readonly RoleProcess[];
  /** Runs `npm run cli -- …` as an operator would: sent to the running process of `via` (its data directory). */
  cli(via: RoleProcess, args: readonly string[]): Promise<{ code: number; json: unknown; stderr: string }>;
  /** The deployment's event store, opened on its own for audits. */
  openStore(): Promise<EventStore>;
  /** The names of the processes holding a connection to the PostgreSQL event store now (from pg_stat_activity). */
  postgresClients(): Promise<Set<string>>;
  close(): Promise<void>;
}

export async function startTopology(
  servers: Servers,
  options: { apis: number; processors: number; env?: Record<string, string>; ready?: RegExp; startTimeoutMs?: number },
): Promise<Topology> {
  const run = randomBytes(4).toString('hex');
  const env: Record<string, string> = {
    MODE: 'external',
    EVENT_STORE: 'postgres',
    POSTGRES_URL: servers.postgresUrl,
    POSTGRES_SCHEMA: `topology_${run}`,
    BUS: 'kafka',
    KAFKA_BROKERS: servers.kafkaBrokers,
    KAFKA_PREFIX: `topology-${run}.`,
    // A killed processor holds its partitions this long before the group moves them (Kafka's minimum).
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    READ_STORE: 'mongo',
    MONGO_URL: servers.mongoUrl,
    MONGO_DB: `topology_${run}`,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SVC_DEMO_ACCOUNT: '0',
    SVC_SYNC_ON_START: '0',
    ...options.env,
  };
  const made: RoleProcess[] = [];
  const role = async (kind: Role, n: number) => {
    const process = await roleProcess(`${kind}-${n}`, run, kind, env, options.startTimeoutMs ?? 180_000);
    made.push(process);
    return process;
  };
  try {
    // The projections process first (it migrates the schema and runs the relay), then one API (it imports
    // the data sources), then the others together.
    const projections = await role('projections', 1);
    await projections.start();
    const apis = [await role('api', 1)];
    await apis[0]!.start();
    for (let n = 2; n <= options.apis; n += 1) apis.push(await role('api', n));
    const processors: RoleProcess[] = [];
    for (let n = 1; n <= options.processors; n += 1) processors.push(await role('processors', n));
    await Promise.all([...apis.slice(1), ...processors].map((p) => p.start()));
    return {
      env,
      projections,
      apis,
      processors,
      cli: (via, args) => runCli({ ...env, DATA_DIR: via.dataDir }, args),
      openStore: () => openPostgresEventStore({ url: servers.postgresUrl, schema: env.POSTGRES_SCHEMA! }),
      postgresClients: () => postgresClients(servers.postgresUrl, run),
      close: () => closeAll(made),
    };
  } catch (error) {
    await closeAll(made);
    throw error;
  }
}

async function closeAll(processes: readonly RoleProcess[]): Promise<void> {
  await Promise.allSettled(processes.map((p) => p.stop()));
  await Promise.allSettled(processes.map((p) => rm(p.dataDir, { recursive: true, force: true })));
}

/**
 * Each process names its connections `risk-screening <role> <INSTANCE_ID>` (infra/external/shared-event-store.ts);
 * the INSTANCE_ID ends with the run, so that other deployments on the same server are not counted.
 */
async function postgresClients(url: string, run: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT DISTINCT split_part(split_part(application_name, ' ', 3), '.', 1) AS name
         FROM pg_stat_activity WHERE application_name LIKE 'risk-screening % %.' || $1`,
      [run],
    );
    return new Set(rows.map((row) => row.name));
  } finally {
    await client.end();
  }
}

async function roleProcess(name: string, run: string, role: Role, shared: Record<string, string>, timeoutMs: number): Promise<RoleProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), `svc-topology-${name}-`));
  const port = await freePort();
  const env = { ...shared, ROLE: role, INSTANCE_ID: `${name}.${run}`, DATA_DIR: dataDir, PORT: String(port) };
  let child: ChildProcess | null = null;
  let output: string[] = [];
  return {
    name,
    role,
    port,
    dataDir,
    url: `http://127.0.0.1:${port}`,
    output: () => output.join(''),
    isRunning: () => child !== null && child.exitCode === null && child.signalCode === null,
    pid: () => child?.pid,
    async start() {
      ({ child, output } = await spawnTsx('infra/main.ts', env, /listening on/, timeoutMs));
    },
    async kill9() {
      const dying = child;
      if (!dying || dying.exitCode !== null) return;
      dying.removeAllListeners('exit');
      const exited = new Promise((resolve) => dying.once('exit', resolve));
      dying.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child && child.exitCode === null && child.signalCode === null) await stop(child);
    },
  };
}

/** `infra/cli/main.ts` in its own process; its stdout is one JSON document. */
function runCli(env: Record<string, string>, args: readonly string[]): Promise<{ code: number; json: unknown; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'infra/cli/main.ts', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve({ code: code ?? 1, json: JSON.parse(stdout), stderr });
      } catch {
        reject(new Error(`cli ${args.join(' ')} exited with ${code}, stdout not JSON:\n${stdout}\n${stderr}`));
      }
    });
  });
}
