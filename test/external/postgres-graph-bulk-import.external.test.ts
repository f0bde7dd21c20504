import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../infra/cli/args.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { snapshotOf } from '../contracts/transfer-graph-store.contract.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { writeTokensCsv, writeTokenTransfersCsv, writeTransactionsCsv } from '../support/bigquery-exports.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { external, skippedSuite } from './external-env.js';
import { postgresSchemas } from './postgres-schemas.js';

/**
 * `data import-transfers --bulk` with GRAPH_STORE=postgres on exports in the public schema (made-up
 * addresses): the graph it builds answers as the pipeline's import of the same files into PostgreSQL does,
 * and the pipeline then counts none of its blocks again.
 */
if (!external.postgresUrl) {
  skippedSuite('data import-transfers --bulk on PostgreSQL', 'POSTGRES_URL is not set (npm run test:external starts a PostgreSQL cluster)');
} else {
  const schemas = postgresSchemas(external.postgresUrl);
  const a = (name: string) => madeUpEvmAddress(`bq-pg-bulk:${name}`).toLowerCase();
  const [alice, bob, carol, dave] = ['alice', 'bob', 'carol', 'dave'].map(a) as [string, string, string, string];
  const TOKEN = a('token');
  const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
  const AT = '2024-03-01T12:00:00Z';
  const FILES = ['tokens.csv', 'token_transfers-000000000000.csv', 'transactions-000000000000.csv'];
  const env = (schema: string) => ({
    SVC_PRICE_PINS: JSON.stringify([{ network: 'ETH', token: TOKEN, symbol: 'TUSD', usd: 1 }]),
    GRAPH_STORE: 'postgres',
    POSTGRES_URL: external.postgresUrl,
    GRAPH_POSTGRES_SCHEMA: schema,
  });

  let dir: string;
  let piped: TestService;
  let bulk: TestService;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bq-pg-bulk-'));
    await writeTokensCsv(join(dir, 'tokens.csv'), [{ address: TOKEN, symbol: 'TUSD', decimals: 6 }]);
    await writeTokenTransfersCsv(join(dir, FILES[1] ?? ''), [
      { token: TOKEN, from: alice, to: bob, value: '2500000', tx: tx(1), logIndex: 0, block: 100, at: AT },
      { token: TOKEN, from: alice, to: bob, value: '500000', tx: tx(2), logIndex: 3, block: 101, at: AT },
      { token: TOKEN, from: bob, to: carol, value: '9000000', tx: tx(3), logIndex: 1, block: 101, at: AT },
    ]);
    await writeTransactionsCsv(join(dir, FILES[2] ?? ''), [
      { hash: tx(10), index: 0, from: dave, to: alice, value: '1000000000000000000', status: 1, block: 100, at: AT },
    ]);
    [piped, bulk] = await Promise.all([startTestService(env(schemas.fresh('graph'))), startTestService(env(schemas.fresh('graph')))]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([piped?.close(), bulk?.close()]);
    await schemas.dropAll();
    await rm(dir, { recursive: true, force: true });
  });

  const silent = { progress: () => ({ update: () => undefined, stop: () => undefined }) };
  const run = (service: TestService, files: readonly string[], ...flags: string[]) =>
    runVerb(service.services, parseArgs(['data', 'import-transfers', ...files.map((f) => join(dir, f)), ...flags]), silent as never);

  describe('data import-transfers --bulk on PostgreSQL', () => {
    it('builds the graph the pipeline import of the same files builds; the pipeline then counts none of it again', async () => {
      expect((await run(piped, FILES)).exitCode).toBe(0);
      const loaded = await run(bulk, FILES, '--bulk');
      expect(loaded.output).toMatchObject({ bulk: { transfers: 4, addresses: 4, blocks: { native: [100, 100], token: [100, 101] } } });
      const addresses = [alice, bob, carol, dave];
      const graph = bulk.services.fullCheck.graph;
      expect(await snapshotOf(graph, addresses)).toEqual(await snapshotOf(piped.services.fullCheck.graph, addresses));
      expect((await graph.coverage('ETH')).datasets).toEqual((await piped.services.fullCheck.graph.coverage('ETH')).datasets);
      expect((await run(bulk, FILES.slice(0, 2))).exitCode).toBe(0);
      expect(await graph.size('ETH')).toBe(4);
      await expect(run(bulk, FILES, '--bulk')).rejects.toMatchObject({ code: 'invalid_state' });
    });
  });
}
