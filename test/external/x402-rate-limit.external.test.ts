import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalNames } from '../../infra/external/namespace.js';
import { connectMongo } from '../../infra/mongo/mongo-connect.js';
import { createMongoRateLimits, RATE_WINDOWS_COLLECTION } from '../../infra/mongo/mongo-rate-limits.js';
import { buildX402App } from '../../read-api/x402/x402-app.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { external, skippedSuite } from './external-env.js';

/**
 * The x402 rate limit across API instances, on the real MongoDB wire (FerretDB): two services, each with
 * its own bootstrap, event store and MongoDB connection, behind two x402 apps. Their calls are counted
 * in one database, so a client gets 60 paid calls per minute in all, not 60 per instance. (The embedded
 * event store belongs to one directory, so each service keeps its own read-model database; the counters
 * they share live in a database both name, as every instance of a deployment on EventStoreDB shares
 * MONGO_DB.)
 */
const env = {
  X402_PAY_TO: madeUpEvmAddress('shared-limit-payee'),
  X402_RPC_URL: 'http://127.0.0.1:9',
  X402_GAS_WALLET_KEY: `0x${'11'.repeat(32)}`,
};
const path = `/screen/ETH/${madeUpEvmAddress('shared-limit')}`;
let now = Date.parse('2026-06-01T12:00:10.000Z');
const clock = { now: () => new Date(now) };

const services: TestService[] = [];
const clients: MongoClient[] = [];
const apps: FastifyInstance[] = [];
let a: FastifyInstance;
let b: FastifyInstance;

async function instance(sharedDb: string): Promise<FastifyInstance> {
  const svc = await startTestService(env);
  services.push(svc);
  const client = await connectMongo(external.mongoUrl, 5000);
  clients.push(client);
  const x402 = svc.services.x402.app!;
  const app = await buildX402App({ ...x402, rateLimits: createMongoRateLimits(client.db(sharedDb)), deps: { ...x402.deps, clock } });
  apps.push(app);
  return app;
}

const paid = (app: FastifyInstance, remoteAddress: string) =>
  app.inject({ method: 'GET', url: path, remoteAddress, headers: { 'x-payment': 'bm90LWEtcHJvb2Y=' } });

if (external.mongoUrl) {
  describe('x402 rate limit shared by two API instances (MongoDB wire)', () => {
    beforeAll(async () => {
      const sharedDb = `limits_${randomUUID().slice(0, 8)}`;
      a = await instance(sharedDb);
      b = await instance(sharedDb);
    });
    afterAll(async () => {
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all(services.map((svc) => svc.close()));
      await Promise.all(clients.map((client) => client.close()));
    });

    it('60 paid calls per minute per client in all: the 61st is 429 on either instance, until the next minute', async () => {
      // 80 at once, half on each instance: exactly 60 get through (to the payment check: 402), 20 are limited
      const statuses = await Promise.all(
        Array.from({ length: 80 }, (_, i) => paid(i % 2 === 0 ? a : b, '203.0.113.9').then((r) => r.statusCode)),
      );
      expect(statuses.filter((s) => s === 402)).toHaveLength(60);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20);
      for (const app of [a, b]) {
        const refused = await paid(app, '203.0.113.9');
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.code).toBe('rate_limit_exceeded');
        expect(refused.headers['retry-after']).toBe('50');
      }
      expect((await paid(b, '203.0.113.10')).statusCode).toBe(402);
      now += 50_000;
      expect((await paid(a, '203.0.113.9')).statusCode).toBe(402);
    });

    it('each bootstrapped service counts in its MongoDB database, not in its process', async () => {
      const svc = services[0]!;
      const app = await buildX402App({ ...svc.services.x402.app!, deps: { ...svc.services.x402.app!.deps, clock } });
      apps.push(app);
      expect((await paid(app, '198.51.100.77')).statusCode).toBe(402);
      const db = clients[0]!.db((await externalNames(svc.services.config)).mongoDb);
      const window = Math.floor(now / 60_000) * 60_000;
      expect(await db.collection(RATE_WINDOWS_COLLECTION).countDocuments({ k: `paid|198.51.100.77|${window}` })).toBe(1);
    });
  });
} else {
  skippedSuite('x402 rate limit shared by two API instances', 'MONGO_URL is not set (npm run test:external starts FerretDB)');
}
