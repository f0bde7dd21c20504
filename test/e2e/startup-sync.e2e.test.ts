import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_CATALOG } from '../../infra/sources/source-catalog.js';
import { SOURCE_FIXTURES } from '../helpers/source-fixtures.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';

/**
 * `npm start` without SVC_SOURCES_DIR: the service listens at once and syncs every source from upstream
 * in the background (here a local stand-in of the upstreams serving the made-up fixtures); with the
 * upstream unreachable it still starts and logs each source it could not import.
 */

let upstream: UpstreamServer;
const dirs: string[] = [];
beforeAll(async () => {
  upstream = await startUpstreamServer(SOURCE_FIXTURES);
});
afterAll(async () => {
  await upstream?.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function startService(mirror: string, ready: RegExp) {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-sync-'));
  dirs.push(dataDir);
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SVC_FSYNC: '0',
    SVC_SOURCES_DIR: '',
    SVC_SYNC_ON_START: '1',
    SVC_UPSTREAM_MIRROR: mirror,
  };
  // Ready once it listens AND the background sync has reported (in either order).
  const both = new RegExp(`(?=[\\s\\S]*listening on)(?=[\\s\\S]*${ready.source})`);
  const { child, output } = await spawnTsx('infra/main.ts', env, both);
  return { child, output, base: `http://127.0.0.1:${port}` };
}

describe('sync from upstream at start', () => {
  it('imports every source in the background while the API already answers', { timeout: 120_000 }, async () => {
    const service = await startService(upstream.url, /data sources from upstream: \d+ imported/);
    try {
      expect(service.output.join('')).toMatch(
        new RegExp(`data sources from upstream: ${SOURCE_CATALOG.length} imported, 0 already current, 0 failed`),
      );
      const health = await (await fetch(`${service.base}/v2/health`)).json();
      expect(health.datasets.map((d: { source: string }) => d.source).sort()).toEqual(SOURCE_CATALOG.map((e) => e.descriptor.slug).sort());
    } finally {
      await stop(service.child);
    }
  });

  it('an unreachable upstream is logged per source and the service still starts', { timeout: 120_000 }, async () => {
    const service = await startService(
      `http://127.0.0.1:${await freePort()}`,
      /data sources from upstream: 0 imported, 0 already current, \d+ failed/,
    );
    try {
      const log = service.output.join('');
      expect(log).toMatch(/listening on/);
      expect(log).toMatch(
        /data source ofac_sdn not imported: GET http:\/\/127\.0\.0\.1:\d+\/sanctionslistservice\.ofac\.treas\.gov\/.*ECONNREFUSED/,
      );
      expect((await fetch(`${service.base}/v2/health`)).status).toBe(200);
    } finally {
      await stop(service.child);
    }
  });
});
