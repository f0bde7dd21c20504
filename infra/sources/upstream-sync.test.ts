import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpTronAddress } from '../../test/helpers/made-up-addresses.js';
import { SOURCE_FIXTURES } from '../../test/helpers/source-fixtures.js';
import { freePort } from '../../test/support/processes.js';
import { startTestService, type TestService } from '../../test/support/test-service.js';
import { startUpstreamServer, type UpstreamServer } from '../../test/support/upstream-server.js';
import { importOneSource, lastPositionOf, syncFromUpstream, type ImportOutcome } from './import-sources.js';
import { SOURCE_CATALOG } from './source-catalog.js';
import { httpFetch, parseMirror } from './upstream-mirror.js';

/**
 * `data sync` against a local stand-in of every upstream (test/support/upstream-server.ts) serving the
 * made-up fixtures in the official formats; GraphSense packs are served as .yaml, as upstream has them.
 */

const SLUGS = SOURCE_CATALOG.map((entry) => entry.descriptor.slug);
let upstream: UpstreamServer;
let svc: TestService;

const sync = (server: UpstreamServer, only?: string[]): Promise<ImportOutcome[]> =>
  syncFromUpstream(svc.services.commands, {
    dataDir: svc.dataDir,
    fetch: httpFetch({ timeoutMs: 5_000 }),
    mirror: parseMirror(server.url),
    ...(only ? { only } : {}),
  });

describe('data sync from a local upstream', () => {
  beforeAll(async () => {
    upstream = await startUpstreamServer(SOURCE_FIXTURES);
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc?.close();
    await upstream?.close();
  });

  it('downloads and imports every source, listing GitHub directories through the trees API', async () => {
    const outcomes = await sync(upstream);
    expect(outcomes.map((o) => [o.source, o.status, o.error])).toEqual(SLUGS.map((slug) => [slug, 'imported', null]));
    expect(upstream.requests.some((path) => path.startsWith('/api.github.com/repos/trustwallet/assets/git/trees/'))).toBe(true);
    expect(upstream.requests).toContain(
      '/raw.githubusercontent.com/graphsense/graphsense-tagpacks/29ff93c8ab0db37370453a290b7becba429b73f8/packs/exchange-wallets-example.yaml',
    );
    // The last append of the sync is the log's head: what a start waits for before it answers.
    expect(lastPositionOf(outcomes)).toEqual(await svc.services.store.headPosition());
    await svc.services.projections.whenProcessed(lastPositionOf(outcomes));
    const versions = Object.fromEntries(svc.services.intel.datasets().map((d) => [d.source, d.version]));
    expect(versions.ofac_sdn).toBe('2025-01-15'); // the XML's DateOfIssue
    expect(versions.ofac_brave_lists).toBe('9680d788291780da92da1ccfdba507e3174367a8'); // undated list: the pinned commit
    expect(await readdir(join(svc.dataDir, 'upstream'))).toContain('graphsense-tagpacks');
  });

  it('a TRON address synced from upstream keeps its case through the screen', async () => {
    const { apiKey } = await svc.account({ depositUsd: 1 });
    const address = madeUpTronAddress('sdn-doe-trx');
    const response = await svc.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: { address, network: 'TRON' },
    });
    const body = response.json();
    expect(body.address).toBe(address);
    expect(body.verdict.risk_level).toBe('sanctioned');
    expect(body.verdict.sdn_match.entity).toBe('DOE, John');
  });

  it('syncing unchanged upstream data again appends nothing', async () => {
    const before = await svc.services.store.headPosition();
    const outcomes = await sync(upstream);
    expect(outcomes.every((o) => o.status === 'current')).toBe(true);
    expect(lastPositionOf(outcomes)).toBeNull();
    expect(await svc.services.store.headPosition()).toEqual(before);
  });

  it('a broken or missing upstream file fails its source only, naming the file and line; nothing of it is imported', async () => {
    const brokenCsv = (await readFile(join(SOURCE_FIXTURES, 'ofsi-uk-consolidated/ConList.csv'), 'utf8')).replace(
      'Cyber,02/05/2024',
      'Cyber',
    );
    const broken = await startUpstreamServer(SOURCE_FIXTURES, {
      overrides: { 'https://ofsistorage.blob.core.windows.net/publishlive/2022format/ConList.csv': brokenCsv },
      missing: [
        'https://raw.githubusercontent.com/ultrasoundmoney/ofac-ethereum-addresses/74a24ed22a73225b5f3a70f84f989b814e8ff627/data.csv',
      ],
    });
    try {
      const before = svc.services.intel.datasets();
      const outcomes = await sync(broken, ['ofsi_uk', 'ofac_ultrasound', 'eu_fsf']);
      const bySource = Object.fromEntries(outcomes.map((o) => [o.source, o]));
      expect(bySource.ofsi_uk!.status).toBe('failed');
      expect(bySource.ofsi_uk!.error).toBe('ofsi-uk-consolidated/ConList.csv, line 3: 35 columns, the header has 36');
      expect(bySource.ofac_ultrasound!.error).toMatch(
        /^GET http:\/\/127\.0\.0\.1:\d+\/raw\.githubusercontent\.com\/ultrasoundmoney\/.*\/data\.csv: HTTP 404$/,
      );
      expect(bySource.eu_fsf!.status).toBe('current');
      await svc.services.whenCaughtUp();
      expect(svc.services.intel.datasets()).toEqual(before);
    } finally {
      await broken.close();
    }
  });

  it('an unreachable upstream fails each source with the reason, and the service keeps its data', async () => {
    const before = svc.services.intel.datasets();
    const outcomes = await syncFromUpstream(svc.services.commands, {
      dataDir: svc.dataDir,
      fetch: httpFetch({ timeoutMs: 2_000 }),
      mirror: parseMirror(`http://127.0.0.1:${await freePort()}`),
      only: ['ofac_sdn', 'graphsense'],
    });
    expect(outcomes.map((o) => [o.source, o.status])).toEqual([
      ['ofac_sdn', 'failed'],
      ['graphsense', 'failed'],
    ]);
    expect(outcomes[0]!.error).toMatch(/ECONNREFUSED/);
    expect(svc.services.intel.datasets()).toEqual(before);
  });

  it("data import: one source from one file, named by the source's upstream name when the file name is not one it reads", async () => {
    const path = join(SOURCE_FIXTURES, 'eu-fsf-consolidated/xmlFullSanctionsList_1_1.xml');
    expect((await importOneSource(svc.services.commands, 'eu_fsf', path)).map((o) => o.status)).toEqual(['current']);
    const error = await importOneSource(svc.services.commands, 'ofac_brave_lists', path).catch((e: Error) => e);
    expect(String(error)).toMatch(/ofac_brave_lists reads no file named 'xmlFullSanctionsList_1_1\.xml'/);
  });
});
