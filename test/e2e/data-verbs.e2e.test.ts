import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../infra/cli/args.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { BROKEN_SOURCE_FIXTURES, SOURCE_FIXTURES } from '../helpers/source-fixtures.js';
import { madeUpEvmAddress, madeUpTronAddress } from '../helpers/made-up-addresses.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** The operator's data verbs and the batch screen, run as the CLI runs them (in-process, no spawn). */

let svc: TestService;
const verb = (...argv: string[]) => runVerb(svc.services, parseArgs(argv));
const screenLines = async (network: string, ...addresses: string[]) =>
  (await verb('screen', '--network', network, ...addresses)).jsonLines as any[];

describe('data verbs', () => {
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc?.close());

  it('data sync --from-dir imports every source; data status names each version and hash', async () => {
    const synced = await verb('data', 'sync', '--from-dir', SOURCE_FIXTURES);
    expect(synced.exitCode).toBe(0);
    expect((synced.output as any).sources.every((s: any) => s.status === 'imported')).toBe(true);
    const status = (await verb('data', 'status')).output as any;
    expect(status.snapshot).toMatch(/^sha256:/);
    expect(status.datasets.find((d: any) => d.source === 'ofsi_uk')).toMatchObject({
      version: '2026-03-14',
      content_hash: expect.stringMatching(/^sha256:/),
    });
  });

  it("a verdict's labels say what their dates rest on, through the index: the list's date, or the day of retrieval", async () => {
    const [line] = await screenLines('ETH', '0xaEDb177D69Ae5562ac7295653FCe454562bF69CC'); // listed by the fixture ultrasound and wallet lists
    const dating = Object.fromEntries(line.verdict.labels.map((row: any) => [row.source, row.dated_by]));
    expect(dating).toMatchObject({ ofac_ultrasound: 'retrieved' });
    expect(Object.values(dating).every((d) => d === 'record' || d === 'list' || d === 'retrieved')).toBe(true);
  });

  it('data import of a broken file fails naming the file and line, and appends nothing', async () => {
    const before = await svc.services.store.headPosition();
    const error = await verb('data', 'import', 'ofsi_uk', join(BROKEN_SOURCE_FIXTURES, 'ofsi-uk-consolidated/ConList.csv')).catch(
      (e: Error) => e,
    );
    expect(String(error)).toMatch(/ofsi-uk-consolidated\/ConList\.csv, line 4: 35 columns, the header has 36/);
    expect(await svc.services.store.headPosition()).toEqual(before);
  });

  it('data import names the path it was given in its errors, for a file and for a folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-import-named-'));
    try {
      const given = join(dir, 'ukcsv-export.csv'); // a name of the operator's choosing, read as ConList.csv
      await copyFile(join(BROKEN_SOURCE_FIXTURES, 'ofsi-uk-consolidated/ConList.csv'), given);
      const error = await verb('data', 'import', 'ofsi_uk', given).catch((e: Error) => e);
      expect(String(error)).toContain(`${given}, line 4: 35 columns, the header has 36`);
      expect(String(error)).not.toContain('ofsi-uk-consolidated/');
      const folder = await verb('data', 'import', 'ofsi_uk', join(BROKEN_SOURCE_FIXTURES, 'ofsi-uk-consolidated')).catch((e: Error) => e);
      expect(String(folder)).toContain(`${join(BROKEN_SOURCE_FIXTURES, 'ofsi-uk-consolidated', 'ConList.csv')}, line 4`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('data curate add shows in the screen with its evidence; retract removes it', async () => {
    const address = madeUpEvmAddress('curated-by-cli');
    const added = await verb(
      'data',
      'curate',
      'add',
      '--address',
      address,
      '--network',
      'BSC',
      '--category',
      'malware',
      '--label',
      'Example drainer',
      '--evidence',
      'https://example.org/drainer-report',
      '--curator',
      'analyst',
    );
    const entryId = (added.output as any).entry_id;
    let [line] = await screenLines('ETH', address); // a risk holds on every EVM network
    expect(line.verdict).toMatchObject({ risk_level: 'high', primary_source_slug: 'curator', risk_categories: ['malware'] });
    expect(line.verdict.labels[0]).toMatchObject({
      source: 'curator',
      source_url: 'https://example.org/drainer-report',
      label: 'Example drainer',
    });
    expect(line.coverage.data_versions.sources.map((s: any) => s.source)).toEqual(['curator']);
    await verb('data', 'curate', 'retract', '--id', entryId, '--reason', 'false positive');
    [line] = await screenLines('ETH', address);
    expect(line.coverage.data_available).toBe(false);
    const refused = await verb(
      'data',
      'curate',
      'add',
      '--address',
      address,
      '--network',
      'ETH',
      '--category',
      'vibes',
      '--evidence',
      'https://example.org/x',
    ).catch((e: Error) => e);
    expect(String(refused)).toMatch(/'vibes' is not a category of taxonomy/);
  });

  it('screen: one line per address, the API body without billing; a malformed address gets an error line', async () => {
    const tron = madeUpTronAddress('sdn-doe-trx');
    const result = await verb('screen', '--network', 'tron', tron, '0x1234');
    expect(result.exitCode).toBe(1);
    const [listed, malformed] = result.jsonLines as any[];
    expect(listed).toMatchObject({ address: tron, network: 'TRON', provider: 'service', verdict: { risk_level: 'sanctioned' } });
    expect(listed).not.toHaveProperty('billing');
    expect(malformed).toEqual({
      address: '0x1234',
      network: 'TRON',
      error: { code: 'validation_error', message: 'not a well-formed TRON address' },
    });
  });
});
