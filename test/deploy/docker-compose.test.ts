import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../infra/config.js';
import { demoAccountWanted } from '../../infra/startup/demo-account.js';

/**
 * docker-compose.yml cannot be run here (no Docker engine), so its shape is checked instead: what each
 * container gets, resolved the way Compose resolves it (YAML merge keys), against the service's own config.
 */
interface ComposeService {
  image?: string;
  profiles?: string[];
  build?: unknown;
  environment?: Record<string, string | null>;
  env_file?: Array<{ path: string; required?: boolean }>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

const compose = parse(await readFile('docker-compose.yml', 'utf8'), { merge: true }) as ComposeFile;

/** Compose's `!override` (replace instead of merge) and `!reset`, as markers the merge below reads. */
const overrideTags = [
  { tag: '!override', collection: 'map' as const, resolve: (map: { toJSON(): unknown }) => ({ '!override': map.toJSON() }) },
  { tag: '!reset', resolve: () => ({ '!reset': true }) },
];

/** `docker compose -f a -f b`, for the keys these files use: maps merge, `!override` replaces, other values replace. */
function composeMerge(base: ComposeFile, over: ComposeFile): ComposeFile {
  const merge = (a: unknown, b: unknown): unknown => {
    if (b && typeof b === 'object' && '!override' in b) return (b as Record<string, unknown>)['!override'];
    if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b))
      return Object.fromEntries(
        [...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [
          k,
          k in b ? merge((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]) : (a as Record<string, unknown>)[k],
        ]),
      );
    return b;
  };
  return merge(base, over) as ComposeFile;
}

/** The PostgreSQL variant: docker-compose.postgres.yml applied on top of docker-compose.yml. */
const onPostgres = composeMerge(
  compose,
  parse(await readFile('docker-compose.postgres.yml', 'utf8'), { merge: true, customTags: overrideTags }) as ComposeFile,
);
const dockerfile = await readFile('Dockerfile', 'utf8');
const ROLES = ['api', 'projections', 'processors'] as const;
const INFRASTRUCTURE = { eventstore: '/var/lib/eventstore', kafka: '/var/lib/kafka/data', mongo: '/data/db' } as const;

/** Image defaults (Dockerfile ENV) overlaid by the service's environment, as the container sees them (no service.env). */
function containerEnv(name: string, file: ComposeFile = compose): Record<string, string> {
  const image: Record<string, string> = {};
  for (const [, pairs] of dockerfile.matchAll(/^ENV (.+)$/gm))
    for (const [, key, value] of pairs!.matchAll(/(\w+)=(\S+)/g)) image[key!] = value!;
  const own = Object.entries(file.services[name]!.environment ?? {}).filter((entry): entry is [string, string] => entry[1] !== null);
  return { ...image, ...Object.fromEntries(own) };
}

/** `named:/path[:ro]` volume mounts of a service, as target → source. */
function mounts(name: string): Map<string, string> {
  return new Map(
    (compose.services[name]!.volumes ?? []).map((spec) => {
      const [source, target] = spec.split(':');
      return [target!, source!];
    }),
  );
}

describe('docker-compose.yml', () => {
  it('runs the three roles of one image, each a valid configuration on EventStoreDB, Kafka and MongoDB', () => {
    for (const role of ROLES) {
      const service = compose.services[role]!;
      expect(service.image, role).toBe('risk-screening-service:local');
      expect(service.build, role).toBe('.');
      const config = loadConfig(containerEnv(role));
      expect(config, role).toMatchObject({ ROLE: role, MODE: 'external', EVENT_STORE: 'esdb', BUS: 'kafka', READ_STORE: 'mongo' });
      for (const dependency of Object.keys(INFRASTRUCTURE))
        expect(service.depends_on?.[dependency], `${role} → ${dependency}`).toEqual({ condition: 'service_healthy' });
    }
  });

  it('creates no demo data: no demo account, key, password or deposit in any role', () => {
    for (const role of ROLES) {
      const env = containerEnv(role);
      expect(demoAccountWanted(loadConfig(env)), role).toBe(false);
      expect(
        Object.keys(env).filter((key) => key.startsWith('SVC_DEMO_') && key !== 'SVC_DEMO_ACCOUNT'),
        role,
      ).toEqual([]);
    }
  });

  it('keeps the api’s data directory on a named volume, and every source directory it is given', () => {
    const env = containerEnv('api');
    expect(mounts('api').get(env.DATA_DIR!)).toBe('api-data');
    expect(compose.volumes).toHaveProperty('api-data');
    for (const role of ROLES) {
      const sources = containerEnv(role).SVC_SOURCES_DIR;
      if (sources) expect(mounts(role).has(sources), `${role}: SVC_SOURCES_DIR ${sources} is on no volume`).toBe(true);
    }
    // The image prepares /data for the unprivileged user the service runs as.
    expect(dockerfile).toMatch(/mkdir -p \/data && chown node:node \/data/);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('publishes the API and the x402 channel of the api, and no other role or server', () => {
    const env = containerEnv('api');
    const config = loadConfig(env);
    expect(compose.services.api!.ports).toEqual(
      expect.arrayContaining([`${config.PORT}:${config.PORT}`, `${config.X402_PORT}:${config.X402_PORT}`]),
    );
    for (const name of Object.keys(compose.services).filter((n) => n !== 'api'))
      expect(compose.services[name]!.ports, name).toBeUndefined();
  });

  it('gives EventStoreDB, Kafka and MongoDB a named volume on their data directories and a health check', () => {
    for (const [name, dataDir] of Object.entries(INFRASTRUCTURE)) {
      const source = mounts(name).get(dataDir);
      expect(source, `${name} keeps ${dataDir} on a volume`).toBeTruthy();
      expect(compose.volumes).toHaveProperty(source!);
      expect(compose.services[name]!.healthcheck?.test.length, name).toBeGreaterThan(0);
    }
    expect(compose.services.kafka!.environment!.KAFKA_LOG_DIRS).toBe(INFRASTRUCTURE.kafka);
  });

  it('health-checks every role on its own /v2/health, and reads operator settings from an optional service.env kept out of the image', async () => {
    for (const role of ROLES) {
      const service = compose.services[role]!;
      expect(service.healthcheck?.test.join(' '), role).toContain(`http://127.0.0.1:${loadConfig(containerEnv(role)).PORT}/v2/health`);
      expect(service.env_file, role).toEqual([{ path: './service.env', required: false }]);
    }
    expect((await readFile('.dockerignore', 'utf8')).split('\n')).toContain('service.env');
    expect((await readFile('.gitignore', 'utf8')).split('\n')).toContain('service.env');
  });
});

describe('docker-compose.postgres.yml on top of docker-compose.yml', () => {
  it('runs the three roles on PostgreSQL, Kafka and MongoDB, each a valid configuration, and leaves EventStoreDB out', () => {
    for (const role of ROLES) {
      const env = containerEnv(role, onPostgres);
      expect(loadConfig(env), role).toMatchObject({
        ROLE: role,
        MODE: 'external',
        EVENT_STORE: 'postgres',
        BUS: 'kafka',
        READ_STORE: 'mongo',
      });
      expect(env.POSTGRES_URL, role).toMatch(/^postgres:\/\/svc:\$\{POSTGRES_PASSWORD:-[^}]+\}@postgres:5432\/risk_screening$/);
      expect(Object.keys(onPostgres.services[role]!.depends_on ?? {}), role).not.toContain('eventstore');
      for (const dependency of ['postgres', 'kafka', 'mongo'])
        expect(onPostgres.services[role]!.depends_on?.[dependency], `${role} → ${dependency}`).toEqual({ condition: 'service_healthy' });
      expect(demoAccountWanted(loadConfig(env)), role).toBe(false);
    }
    expect(onPostgres.services.projections!.depends_on?.api).toEqual({ condition: 'service_healthy' });
    // A service in a profile starts only when the profile is asked for.
    expect(onPostgres.services.eventstore!.profiles).toEqual(['esdb']);
  });

  it('gives PostgreSQL 13 or later a named volume on its data directory, a health check, and no published port', async () => {
    const postgres = onPostgres.services.postgres!;
    expect(Number(/^postgres:(\d+)/.exec(postgres.image ?? '')?.[1])).toBeGreaterThanOrEqual(13);
    const source = new Map((postgres.volumes ?? []).map((spec) => [spec.split(':')[1], spec.split(':')[0]])).get(
      '/var/lib/postgresql/data',
    );
    expect(onPostgres.volumes).toHaveProperty(source!);
    expect(postgres.healthcheck?.test.join(' ')).toContain('pg_isready');
    expect(postgres.ports).toBeUndefined();
    expect((await readFile('.gitignore', 'utf8')).split('\n')).toContain('.env');
  });
});
