import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress, madeUpTronAddress } from '../../test/helpers/made-up-addresses.js';
import { SOURCE_FIXTURES } from '../../test/helpers/source-fixtures.js';
import { loadSourcesFromDir, type LoadedSource, type LoadProgress } from './load-sources.js';
import { SOURCE_CATALOG } from './source-catalog.js';

const evm = (seed: string): string => madeUpEvmAddress(seed).toLowerCase();
const progress: LoadProgress[] = [];
const loaded = await loadSourcesFromDir(SOURCE_FIXTURES, (p) => progress.push(p));
const bySlug = (slug: string): LoadedSource => loaded.find((s) => s.source === slug)!;
const temporary: string[] = [];
afterAll(() => Promise.all(temporary.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('loadSourcesFromDir on made-up fixtures', () => {
  it('loads every catalogued source present, in catalog order', () => {
    expect(loaded.map((s) => s.source)).toEqual(SOURCE_CATALOG.map((entry) => entry.descriptor.slug));
    expect(progress.at(-1)).toMatchObject({ source: 'eu_fsf', filesDone: 1, filesTotal: 1 });
  });

  it('stamps provenance: source slug, upstream file URL unless the record names one, dataset date', () => {
    const ultrasound = bySlug('ofac_ultrasound');
    // An undated list read from a directory: versioned by the day its files were retrieved.
    expect(ultrasound.version).toMatch(/^retrieved-\d{4}-\d{2}-\d{2}$/);
    expect(ultrasound.claims[0]).toMatchObject({
      source: 'ofac_ultrasound',
      sourceUrl:
        'https://raw.githubusercontent.com/ultrasoundmoney/ofac-ethereum-addresses/74a24ed22a73225b5f3a70f84f989b814e8ff627/data.csv',
      firstSeenAt: `${ultrasound.version.slice('retrieved-'.length)}T00:00:00Z`,
    });
    const wallets = bySlug('ofac_wallet_lists');
    expect(wallets.version).toBe('2026-02-01');
    // The same address in 1_Complete and 2_Tron: one claim, from the first file read.
    expect(wallets.claims.find((c) => c.scope === 'TRON')!.sourceUrl).toBe(
      'https://raw.githubusercontent.com/1020-1795/OFAC_SDN_Wallet_List/8817cdb478c2d7d78b7fea5375e36677b7e5462a/OFAC_Sanctioned_Wallet_Lists/1_Complete_Sanctioned_Wallet_List.txt',
    );
    expect(bySlug('ofac_sdn').claims[0]!.sourceUrl).toBe('https://sanctionssearch.ofac.treas.gov/Details.aspx?id=90001');
  });

  it("says what each claim's dates rest on: the record's own date, the list's, or the day its files were retrieved", () => {
    // GraphSense and MEW date their entries; a sanctions list has its own date; the ultrasound list has none.
    expect(new Set(bySlug('graphsense').claims.map((c) => c.datedBy))).toEqual(new Set(['record']));
    expect(bySlug('mew_darklist').claims.some((c) => c.datedBy === 'record')).toBe(true);
    expect(new Set(bySlug('ofac_wallet_lists').claims.map((c) => c.datedBy))).toEqual(new Set(['list']));
    expect(bySlug('ofac_wallet_lists').claims[0]!.firstSeenAt).toBe('2026-02-01T00:00:00Z');
    expect(new Set(bySlug('ofac_ultrasound').claims.map((c) => c.datedBy))).toEqual(new Set(['retrieved']));
  });

  it('keeps one claim per address, scope, kind and category within a source', () => {
    const brave = bySlug('ofac_brave_lists');
    expect(brave.claims.filter((c) => c.address === evm('sdn-group-eth'))).toHaveLength(1);
    expect(brave.stats).toMatchObject({ files: 5, records: 5, otherLedgers: 1, duplicates: 1 });
  });

  it('drops a legacy SDN.CSV designation the SDN_ADVANCED publication no longer lists', () => {
    const csv = bySlug('ofac_sdn_csv');
    expect(csv.claims.map((c) => c.address)).toEqual([evm('sdn-group-eth'), madeUpTronAddress('sdn-doe-trx')]);
    expect(csv.stats.superseded).toBe(1);
  });

  it('reports what it left out: other ledgers, ignored tags, unread files', () => {
    expect(bySlug('graphsense').stats.untagged).toBe(1);
    expect(bySlug('mew_darklist').stats.ignoredFiles).toEqual(['mew-ethereum-lists/urls-darklist.json']);
    expect(bySlug('ofac_sdn').stats.ignoredFiles).toEqual([]);
    expect(bySlug('trustwallet_tokens').stats.otherLedgers).toBe(2);
  });

  it('imports tokens once per address and chain, with the token list as source', () => {
    const tokens = bySlug('trustwallet_tokens').tokens.map((t) => `${t.chain} ${t.symbol} ${t.source}`);
    expect(tokens.sort()).toEqual([
      'BSC BEX trustwallet_tokens',
      'ETH EXT trustwallet_tokens',
      'TRON ETT trustwallet_tokens',
      'TRON FEA trustwallet_tokens',
    ]);
  });

  it('hashes content: the same files give the same hash, a changed file another', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'sources-'));
    temporary.push(copy);
    await cp(SOURCE_FIXTURES, copy, { recursive: true });
    const again = await loadSourcesFromDir(copy);
    expect(again.map((s) => s.contentHash)).toEqual(loaded.map((s) => s.contentHash));
    await writeFile(join(copy, 'ofac-ultrasoundmoney-eth/data.csv'), `address,name\n${madeUpEvmAddress('another')},"ANOTHER LTD"\n`);
    const changed = await loadSourcesFromDir(copy);
    const differs = changed.filter((s, i) => s.contentHash !== again[i]!.contentHash).map((s) => s.source);
    expect(differs).toEqual(['ofac_ultrasound']);
  });

  it('skips a source whose folder is absent, and says so', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'sources-'));
    temporary.push(empty);
    const seen: LoadProgress[] = [];
    expect(await loadSourcesFromDir(empty, (p) => seen.push(p))).toEqual([]);
    expect(seen).toHaveLength(SOURCE_CATALOG.length);
    expect(seen.every((p) => p.file === null)).toBe(true);
  });
});
