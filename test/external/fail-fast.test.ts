import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { freePort } from '../support/processes.js';

/**
 * The adapter choice is checked at start: impossible combinations are refused with a message saying why,
 * and a server that is not there stops the start within the connect timeout (the drivers' own defaults
 * would wait 9 to 30 s). No server is needed: the ports below are closed.
 */

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('adapter configuration', () => {
  it('MODE sets the defaults and each port can be chosen on its own', () => {
    expect(loadConfig({})).toMatchObject({
      MODE: 'embedded',
      EVENT_STORE: 'embedded',
      BUS: 'embedded',
      READ_STORE: 'embedded',
      ROLE: 'all',
    });
    const external = loadConfig({
      MODE: 'external',
      ESDB_URL: 'esdb://db:2113?tls=false',
      KAFKA_BROKERS: 'k:9092',
      MONGO_URL: 'mongodb://m:27017',
    });
    expect(external).toMatchObject({ EVENT_STORE: 'esdb', BUS: 'kafka', READ_STORE: 'mongo' });
    expect(loadConfig({ BUS: 'kafka', KAFKA_BROKERS: 'k:9092' })).toMatchObject({
      EVENT_STORE: 'embedded',
      BUS: 'kafka',
      READ_STORE: 'embedded',
    });
  });

  it('refuses a missing server address and a role that needs shared servers', () => {
    expect(() => loadConfig({ MODE: 'external' })).toThrow(
      /EVENT_STORE=esdb needs ESDB_URL.*BUS=kafka needs KAFKA_BROKERS.*READ_STORE=mongo needs MONGO_URL/,
    );
    expect(() => loadConfig({ ROLE: 'processors' })).toThrow(/ROLE=processors needs EVENT_STORE=esdb/);
    expect(() => loadConfig({ ROLE: 'api', BUS: 'kafka', KAFKA_BROKERS: 'k:9092' })).toThrow(/ROLE=api needs READ_STORE=mongo/);
    expect(() => loadConfig({ BUS: 'rabbit' })).toThrow(/BUS/);
    expect(() => loadConfig({ EVENT_STORE: 'postgres' })).toThrow(/EVENT_STORE=postgres needs POSTGRES_URL/);
    expect(() => loadConfig({ GRAPH_STORE: 'postgres' })).toThrow(/GRAPH_STORE=postgres needs POSTGRES_URL/);
    expect(() => loadConfig({ GRAPH_STORE: 'postgres', POSTGRES_URL: 'postgres://p/db', GRAPH_POSTGRES_SCHEMA: 'Graph' })).toThrow(
      /GRAPH_POSTGRES_SCHEMA/,
    );
    expect(() => loadConfig({ EVENT_STORE: 'postgres', POSTGRES_URL: 'postgres://p/db', POSTGRES_SCHEMA: 'Events' })).toThrow(
      /POSTGRES_SCHEMA/,
    );
  });

  it('PostgreSQL is a shared event store: the separate roles run on it as on EventStoreDB', () => {
    const shared = { EVENT_STORE: 'postgres', POSTGRES_URL: 'postgres://p/db', KAFKA_BROKERS: 'k:9092', MONGO_URL: 'mongodb://m:27017' };
    expect(loadConfig({ ...shared, MODE: 'external', ROLE: 'processors' })).toMatchObject({
      EVENT_STORE: 'postgres',
      BUS: 'kafka',
      READ_STORE: 'mongo',
      POSTGRES_SCHEMA: 'event_store',
      POSTGRES_POOL_SIZE: 10,
    });
  });

  const closed = async () => `127.0.0.1:${await freePort()}`;
  const cases: [string, (address: string) => Record<string, string>, RegExp][] = [
    ['Kafka', (a) => ({ BUS: 'kafka', KAFKA_BROKERS: a }), /Kafka is unreachable/],
    ['MongoDB', (a) => ({ READ_STORE: 'mongo', MONGO_URL: `mongodb://${a}/` }), /MongoDB is unreachable/],
    ['EventStoreDB', (a) => ({ EVENT_STORE: 'esdb', ESDB_URL: `esdb://${a}?tls=false` }), /EventStoreDB is unreachable/],
    [
      'PostgreSQL',
      (a) => ({ EVENT_STORE: 'postgres', POSTGRES_URL: `postgres://svc:secret@${a}/events` }),
      /PostgreSQL at .* is unreachable/,
    ],
  ];
  for (const [name, env, message] of cases) {
    it(`an unreachable ${name} stops the start at once, and the data directory is released`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'svc-failfast-'));
      dirs.push(dir);
      const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', CONNECT_TIMEOUT_MS: '1000', ...env(await closed()) });
      const started = performance.now();
      await expect(createServices(config)).rejects.toMatchObject({ code: 'backend_unavailable', message: expect.stringMatching(message) });
      expect(performance.now() - started).toBeLessThan(1500);
      // Nothing is left open: the embedded store (opened first when chosen) released its directory lock.
      const embedded = await createServices(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }));
      await embedded.close();
    });
  }
});
