import { describe, expect, it } from 'vitest';
import { datasetDecider, type ImportDataset } from '../domain/intel/dataset.decider.js';
import type { Claim, SourceDescriptor, TokenListing } from '../domain/intel/intel.types.js';
import { madeUpEvmAddress, madeUpTronAddress } from '../test/helpers/made-up-addresses.js';
import { createIntelIndex, type IntelIndexProjection } from './intel-index.js';

const descriptor = (slug: string, trustWeight: number): SourceDescriptor => ({
  slug,
  class: 'curator',
  trustWeight,
  publicName: slug,
  url: `https://example.org/${slug}`,
});
const CURATOR = descriptor('curator', 80);
const LIST = descriptor('token_list', 60);

const seen = { sourceUrl: 'https://example.org/list', firstSeenAt: '2024-01-01T00:00:00Z', lastSeenAt: '2024-01-01T00:00:00Z' };
const risk = (address: string, source: string, category: string, scope: Claim['scope'] = 'evm'): Claim => ({
  ...seen,
  address,
  scope,
  kind: 'risk',
  category,
  label: null,
  confidence: 90,
  source,
});

function importInto(index: IntelIndexProjection, command: Omit<ImportDataset, 'type' | 'importedAt' | 'version'>): void {
  const events = datasetDecider.decide(
    { type: 'ImportDataset', importedAt: '2026-11-22T00:00:00Z', version: '2026-11-22', ...command },
    datasetDecider.initialState(),
  );
  for (const event of events) index.apply(event);
}

const wallet = madeUpEvmAddress('index-wallet');
const contract = madeUpEvmAddress('index-contract');
const tronWallet = madeUpTronAddress('index-tron');

describe('intel index', () => {
  it('returns the claims that hold on the network asked for', () => {
    const index = createIntelIndex();
    importInto(index, {
      source: 'curator',
      contentHash: 'h1',
      descriptor: CURATOR,
      tokens: [],
      claims: [
        risk(wallet.toLowerCase(), 'curator', 'phishing'),
        risk(contract.toLowerCase(), 'curator', 'contract', 'ETH'),
        risk(tronWallet, 'curator', 'scam', 'TRON'),
      ],
    });
    expect(index.lookup(wallet, 'BSC').claims.map((c) => c.category)).toEqual(['phishing']);
    expect(index.lookup(contract, 'ETH').claims.map((c) => c.category)).toEqual(['contract']);
    expect(index.lookup(contract, 'BSC').claims).toEqual([]);
    expect(index.lookup(tronWallet, 'TRON').claims[0]).toMatchObject({
      address: tronWallet,
      kind: 'risk',
      category: 'scam',
      source: 'curator',
    });
    expect(index.lookup(tronWallet.toLowerCase(), 'TRON').claims).toEqual([]); // base58 is case-sensitive
    expect(index.lookup(wallet, 'ETH').sources).toEqual({ curator: CURATOR });
  });

  it('gives back claims exactly as imported', () => {
    const index = createIntelIndex();
    const sanction: Claim = {
      ...seen,
      address: wallet.toLowerCase(),
      scope: 'evm',
      kind: 'sanction',
      category: 'sanctions',
      label: 'EXAMPLE GROUP',
      confidence: 100,
      source: 'curator',
      sanction: { list: 'US', entity: 'EXAMPLE GROUP', program: 'CYBER2', listEntryId: '1', listDate: '2022-01-01', asset: 'ETH' },
    };
    const identity: Claim = {
      ...seen,
      address: wallet.toLowerCase(),
      scope: 'ETH',
      kind: 'identity',
      category: 'exchange',
      label: 'Example Exchange',
      confidence: 50,
      source: 'curator',
    };
    importInto(index, { source: 'curator', contentHash: 'h1', descriptor: CURATOR, tokens: [], claims: [sanction, identity] });
    expect(index.lookup(wallet, 'ETH').claims).toEqual([sanction, identity]);
  });

  it('a new import of a source replaces its previous claims, other sources stay', () => {
    const index = createIntelIndex();
    importInto(index, {
      source: 'curator',
      contentHash: 'h1',
      descriptor: CURATOR,
      tokens: [],
      claims: [risk(wallet.toLowerCase(), 'curator', 'phishing')],
    });
    importInto(index, {
      source: 'token_list',
      contentHash: 't1',
      descriptor: LIST,
      tokens: [],
      claims: [risk(wallet.toLowerCase(), 'token_list', 'scam')],
    });
    importInto(index, {
      source: 'curator',
      contentHash: 'h2',
      descriptor: CURATOR,
      tokens: [],
      claims: [risk(contract.toLowerCase(), 'curator', 'mixer')],
    });
    expect(index.lookup(wallet, 'ETH').claims.map((c) => `${c.source}:${c.category}`)).toEqual(['token_list:scam']);
    expect(index.lookup(contract, 'ETH').claims.map((c) => c.category)).toEqual(['mixer']);
    expect(index.datasets().map((d) => [d.source, d.contentHash, d.claimCount])).toEqual([
      ['curator', 'h2', 1],
      ['token_list', 't1', 1],
    ]);
  });

  it('an import without its Completed event, or with an invalid batch, changes nothing', () => {
    const index = createIntelIndex();
    importInto(index, {
      source: 'curator',
      contentHash: 'h1',
      descriptor: CURATOR,
      tokens: [],
      claims: [risk(wallet.toLowerCase(), 'curator', 'phishing')],
    });
    const [started, batch] = datasetDecider.decide(
      {
        type: 'ImportDataset',
        source: 'curator',
        version: 'v2',
        contentHash: 'h2',
        importedAt: '2026-11-22T00:00:00Z',
        descriptor: CURATOR,
        tokens: [],
        claims: [risk(contract.toLowerCase(), 'curator', 'scam')],
      },
      datasetDecider.initialState(),
    );
    index.apply(started!);
    index.apply(batch!);
    expect(index.lookup(contract, 'ETH').claims).toEqual([]);

    index.apply(started!);
    expect(() => index.apply({ type: 'ClaimBatchImported', data: { source: 'curator', batch: [{ address: contract }] } })).toThrow();
    index.apply({ type: 'DatasetImportCompleted', data: { source: 'curator', contentHash: 'h2' } });
    expect(index.lookup(wallet, 'ETH').claims.map((c) => c.category)).toEqual(['phishing']);
    expect(index.lookup(contract, 'ETH').claims).toEqual([]);
  });

  it('ignores events it does not handle', () => {
    const index = createIntelIndex();
    index.apply({ type: 'AccountOpened', data: { userId: 'u' } });
    expect(index.datasets()).toEqual([]);
  });

  it('merges token listings on the asked network: the more trusted list first, tags united', () => {
    const index = createIntelIndex();
    const listing = (source: string, fields: Partial<TokenListing>): TokenListing => ({
      address: contract,
      source,
      chain: 'ETH',
      symbol: null,
      name: null,
      decimals: null,
      logoUrl: null,
      tags: [],
      ...fields,
    });
    importInto(index, {
      source: 'token_list',
      contentHash: 't1',
      descriptor: LIST,
      claims: [],
      tokens: [listing('token_list', { symbol: 'EXT', decimals: 18, logoUrl: 'https://example.org/ext.png', tags: ['erc20'] })],
    });
    importInto(index, {
      source: 'curator',
      contentHash: 'h1',
      descriptor: CURATOR,
      claims: [],
      tokens: [listing('curator', { symbol: 'EXT2', name: 'Example Token', tags: ['deprecated'] })],
    });
    expect(index.lookup(contract, 'ETH').token).toEqual({
      chain: 'ETH',
      symbol: 'EXT2',
      name: 'Example Token',
      decimals: 18,
      logoUrl: 'https://example.org/ext.png',
      tags: ['deprecated', 'erc20'],
      listedBy: ['curator', 'token_list'],
    });
    expect(index.lookup(contract, 'BSC').token).toBeNull();
  });

  it('holds 200k claims over 100k addresses and answers each address (speed: npm run bench:intel)', () => {
    const index = createIntelIndex();
    const addresses = Array.from({ length: 100_000 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    const claims = addresses.flatMap((address, i) => [
      risk(address, 'curator', i % 2 ? 'phishing' : 'scam'),
      risk(address, 'curator', 'contract', 'ETH'),
    ]);
    importInto(index, { source: 'curator', contentHash: 'big', descriptor: CURATOR, tokens: [], claims });
    for (const address of addresses.slice(0, 10_000)) expect(index.lookup(address, 'ETH').claims).toHaveLength(2);
  });
});

describe('intel index: curated entries and data versions', () => {
  const curated = (entryId: string, address: string, network: 'ETH' | 'TRON', kind: 'risk' | 'identity', category: string) => ({
    type: 'CuratorEntryAdded',
    data: {
      entryId,
      address,
      network,
      kind,
      category,
      label: kind === 'identity' ? 'ExampleX' : null,
      confidence: 90,
      evidenceUrl: 'https://example.org/evidence',
      curator: 'analyst@example.test',
      addedAt: '2026-11-22T10:00:00Z',
    },
  });

  it('a curated risk holds on every EVM network, a curated name on its network, until retracted', () => {
    const index = createIntelIndex();
    index.apply(curated('c1', wallet, 'ETH', 'risk', 'malware'));
    index.apply(curated('c2', tronWallet, 'TRON', 'identity', 'exchange'));
    expect(index.lookup(wallet, 'BSC').claims).toEqual([
      expect.objectContaining({ source: 'curator', category: 'malware', sourceUrl: 'https://example.org/evidence' }),
    ]);
    expect(index.lookup(tronWallet, 'TRON').claims[0]).toMatchObject({ kind: 'identity', label: 'ExampleX', address: tronWallet });
    expect(index.datasets().find((d) => d.source === 'curator')).toMatchObject({ claimCount: 2, version: '2026-11-22' });
    const before = index.snapshot();
    index.apply({
      type: 'CuratorEntryRetracted',
      data: { entryId: 'c1', reason: 'false positive', curator: 'lead@example.test', retractedAt: '2026-11-23T08:00:00Z' },
    });
    expect(index.lookup(wallet, 'ETH').claims).toEqual([]);
    expect(index.snapshot()).not.toBe(before);
  });

  it('a lookup names the data versions of the sources behind it and the snapshot of the whole index', () => {
    const index = createIntelIndex();
    importInto(index, {
      source: 'token_list',
      contentHash: 'sha256:aa',
      descriptor: LIST,
      tokens: [],
      claims: [risk(wallet.toLowerCase(), 'token_list', 'scam')],
    });
    importInto(index, {
      source: 'other',
      contentHash: 'sha256:bb',
      descriptor: descriptor('other', 50),
      tokens: [],
      claims: [risk(contract.toLowerCase(), 'other', 'scam')],
    });
    const intel = index.lookup(wallet, 'ETH');
    expect(intel.datasets!.map((d) => [d.source, d.contentHash])).toEqual([['token_list', 'sha256:aa']]);
    expect(intel.snapshot).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(index.lookup(contract, 'ETH').snapshot).toBe(intel.snapshot);
  });
});
