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
const dockerfile = await readFile('Dockerfile', 'utf8');
const ROLES = ['api', 'projections', 'processors'] as const;
const INFRASTRUCTURE = { eventstore: '/var/lib/eventstore', kafka: '/var/lib/kafka/data', mongo: '/data/db' } as const;

/** Image defaults (Dockerfile ENV) overlaid by the service's environment, as the container sees them (no service.env). */
function containerEnv(name: string): Record<string, string> {
  const image: Record<string, string> = {};
  for (const [, pairs] of dockerfile.matchAll(/^ENV (.+)$/gm))
    for (const [, key, value] of pairs!.matchAll(/(\w+)=(\S+)/g)) image[key!] = value!;
  const own = Object.entries(compose.services[name]!.environment ?? {}).filter((entry): entry is [string, string] => entry[1] !== null);
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
