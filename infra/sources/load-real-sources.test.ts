import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSourcesFromDir, type LoadedSource } from './load-sources.js';

/**
 * The real data sets (SVC_SOURCES_DIR, default ../shared/data): counts must roughly match
 * ../shared/data/SOURCES.md. Skipped with a reason when the directory is absent.
 */

const DATA_DIR = resolve(process.env.SVC_SOURCES_DIR ?? '../shared/data');
const ABSENT = existsSync(DATA_DIR) ? null : `${DATA_DIR} is absent (set SVC_SOURCES_DIR to a directory laid out like ../shared/data)`;
if (ABSENT) console.warn(`load-real-sources.test: skipped, ${ABSENT}`);

describe.skipIf(ABSENT !== null)(`loadSourcesFromDir on the real data in ${DATA_DIR}`, async () => {
  const loaded = ABSENT ? [] : await loadSourcesFromDir(DATA_DIR);
  const source = (slug: string): LoadedSource => {
    const found = loaded.find((s) => s.source === slug);
    if (!found) throw new Error(`${slug} not loaded`);
    return found;
  };
  const sanctionsOf = (slug: string) => source(slug).claims.flatMap((c) => (c.kind === 'sanction' ? [c] : []));

  it('loads all ten sources without a broken file', () => {
    expect(loaded).toHaveLength(10);
    expect(loaded.flatMap((s) => s.stats.rejected).map((r) => `${r.file} ${r.where}`)).toEqual([
      'mew-ethereum-lists/addresses-darklist.json record 376', // 39 hex digits upstream
    ]);
  });

  it('OFAC SDN_ADVANCED: ≥ 70 ETH addresses with entity names, TRON addresses with case preserved', () => {
    const sanctions = sanctionsOf('ofac_sdn');
    expect(source('ofac_sdn').version).toBe('2025-11-19');
    const eth = sanctions.filter((c) => c.sanction.asset === 'ETH' && c.sanction.entity !== null);
    expect(eth.length).toBeGreaterThanOrEqual(70);
    expect(eth.every((c) => c.address === c.address.toLowerCase() && c.sanction.listEntryId !== null)).toBe(true);
    const tron = sanctions.filter((c) => c.scope === 'TRON');
    expect(tron.length).toBeGreaterThanOrEqual(100); // TRX 29 + TRON-format USDT 78
    const xml = readFileSync(join(DATA_DIR, 'ofac-sdn-official/sdn_advanced.digital-currency-subset.xml'), 'utf8');
    expect(tron.every((c) => xml.includes(`>${c.address}<`))).toBe(true);
  });

  it('OFAC derived lists and the legacy CSV match SOURCES.md', () => {
    expect(sanctionsOf('ofac_ultrasound')).toHaveLength(97);
    expect(sanctionsOf('ofac_ultrasound').every((c) => c.sanction.entity !== null)).toBe(true);
    // 2_Tron holds 276; the complete list adds one TRON-format address filed under another ticker.
    expect(sanctionsOf('ofac_wallet_lists').filter((c) => c.scope === 'TRON').length).toBeGreaterThanOrEqual(276);
    expect(sanctionsOf('ofac_brave_lists').filter((c) => c.scope === 'TRON').length).toBeGreaterThanOrEqual(100);
    // The 2024 CSV still lists Tornado Cash, delisted in 2025: those designations are superseded.
    expect(source('ofac_sdn_csv').stats.superseded).toBe(12);
  });

  it('label sources match SOURCES.md roughly', () => {
    const graphsense = source('graphsense');
    expect(graphsense.stats.records).toBeGreaterThan(20_000);
    expect(graphsense.claims.filter((c) => c.category === 'issuer_blocked')).toHaveLength(774);
    expect(graphsense.claims.filter((c) => c.category === 'exchange' && c.scope === 'TRON').length).toBeGreaterThanOrEqual(25);
    expect(source('etherscan_forta').stats.records).toBe(7780 + 6726 + 753 + 1);
    expect(source('mew_darklist').claims.length).toBeGreaterThan(600);
  });

  it('token lists match SOURCES.md', () => {
    const lists = source('ethereum_lists_tokens').tokens;
    expect(lists.filter((t) => t.chain === 'ETH')).toHaveLength(2104);
    expect(lists.filter((t) => t.chain === 'BSC')).toHaveLength(19);
    const trust = source('trustwallet_tokens').tokens;
    expect([
      trust.filter((t) => t.chain === 'ETH').length,
      trust.filter((t) => t.chain === 'BSC').length,
      trust.filter((t) => t.chain === 'TRON').length,
    ]).toEqual([296, 64, 64]);
  });
});
