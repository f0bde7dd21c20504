import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider.js';
import { isServiceError } from '../shared/errors.js';
import { datasetDecider, type ImportDataset } from './dataset.decider.js';
import { CLAIM_BATCH_SIZE, type DatasetEvent } from './dataset.events.js';
import type { Claim, SourceDescriptor } from './intel.types.js';

const descriptor: SourceDescriptor = {
  slug: 'example_list',
  class: 'community_feed',
  trustWeight: 50,
  publicName: 'Example list',
  url: 'https://example.org/list.json',
};

const claim = (n: number): Claim => ({
  address: `0x${n.toString(16).padStart(40, '0')}`,
  scope: 'evm',
  kind: 'risk',
  category: 'scam',
  label: null,
  confidence: 80,
  sourceUrl: 'https://example.org/list.json',
  firstSeenAt: '2018-11-06T00:00:00Z',
  lastSeenAt: '2018-11-06T00:00:00Z',
  source: 'example_list',
});

const importOf = (contentHash: string, claimCount: number, extra: Partial<ImportDataset> = {}): ImportDataset => ({
  type: 'ImportDataset',
  source: 'example_list',
  version: '2018-12-12',
  contentHash,
  claims: Array.from({ length: claimCount }, (_, i) => claim(i + 1)),
  tokens: [],
  importedAt: '2026-11-22T10:00:00Z',
  descriptor,
  ...extra,
});

/** Given past events, when a command is decided, then these events (or this refusal). */
function given(history: readonly DatasetEvent[]) {
  const state = fold(datasetDecider, datasetDecider.initialState(), history);
  return { when: (command: ImportDataset) => datasetDecider.decide(command, state) };
}

function refusal(decide: () => unknown): string {
  try {
    decide();
  } catch (error) {
    if (isServiceError(error)) return error.code;
    throw error;
  }
  return 'decided without refusal';
}

describe('dataset decider', () => {
  it('a first import is one Started, its claims in batches of at most 2000, then Completed', () => {
    const events = given([]).when(importOf('sha256:aa', 4100));
    expect(events.map((e) => e.type)).toEqual([
      'DatasetImportStarted',
      'ClaimBatchImported',
      'ClaimBatchImported',
      'ClaimBatchImported',
      'DatasetImportCompleted',
    ]);
    expect(events[0]!.data).toMatchObject({ source: 'example_list', version: '2018-12-12', contentHash: 'sha256:aa', claimCount: 4100 });
    const batches = events.flatMap((e) => (e.type === 'ClaimBatchImported' ? [e.data.batch.length] : []));
    expect(batches).toEqual([CLAIM_BATCH_SIZE, CLAIM_BATCH_SIZE, 100]);
    expect(events.at(-1)).toEqual({ type: 'DatasetImportCompleted', data: { source: 'example_list', contentHash: 'sha256:aa' } });
  });

  it('importing the content already current appends nothing', () => {
    const history = given([]).when(importOf('sha256:aa', 3));
    expect(given(history).when(importOf('sha256:aa', 3))).toEqual([]);
  });

  it('new content after a completed import is imported again', () => {
    const history = given([]).when(importOf('sha256:aa', 3));
    const events = given(history).when(importOf('sha256:bb', 1));
    expect(events.map((e) => e.type)).toEqual(['DatasetImportStarted', 'ClaimBatchImported', 'DatasetImportCompleted']);
  });

  it('tokens travel in one TokensImported event before Completed', () => {
    const token = {
      address: '0x00000000000000000000000000000000000000aa',
      source: 'example_list',
      chain: 'ETH' as const,
      symbol: 'EXM',
      name: 'Example',
      decimals: 18,
      logoUrl: null,
      tags: ['erc20'],
    };
    const events = given([]).when(importOf('sha256:cc', 0, { tokens: [token] }));
    expect(events.map((e) => e.type)).toEqual(['DatasetImportStarted', 'TokensImported', 'DatasetImportCompleted']);
  });

  it('an import interrupted before Completed is not current, so the same content is imported again', () => {
    const [started] = given([]).when(importOf('sha256:aa', 1));
    expect(given([started!]).when(importOf('sha256:aa', 1))).not.toEqual([]);
  });

  it('refuses claims or a descriptor of another source', () => {
    const foreign = { ...claim(1), source: 'other' };
    expect(refusal(() => given([]).when(importOf('sha256:dd', 0, { claims: [foreign] })))).toBe('data_import_failed');
    const misnamed = { ...descriptor, slug: 'other' };
    expect(refusal(() => given([]).when(importOf('sha256:dd', 0, { descriptor: misnamed })))).toBe('data_import_failed');
  });

  it('every event it decides passes its own schema on load', () => {
    for (const event of given([]).when(importOf('sha256:ee', 2))) {
      expect(datasetDecider.parse(event)).toEqual(event);
    }
    expect(datasetDecider.parse({ type: 'SomethingElse', data: {} })).toBeNull();
  });
});
