import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { datasetDecider } from '../domain/intel/dataset.decider.js';
import { datasetStream } from '../domain/intel/dataset.events.js';
import type { Claim, SourceDescriptor } from '../domain/intel/intel.types.js';
import type { EventStore, RecordedEvent } from '../domain/ports/event-store.port.js';
import type { VerdictEventRef } from '../domain/ports/intel-history.port.js';
import type { IntelIndex } from '../domain/ports/intel-index.port.js';
import { madeUpEvmAddress } from '../test/helpers/made-up-addresses.js';
import { openTestEventStore } from '../test/support/test-event-store.js';
import { intelHistory } from './intel-as-of.js';
import { createIntelIndex, type IntelIndexProjection } from './intel-index.js';

const wallet = madeUpEvmAddress('as-of-wallet');
const other = madeUpEvmAddress('as-of-other');
const metadata = { correlationId: 'as-of-test', occurredAt: '2026-11-22T00:00:00Z', schemaVersion: 1 };
const descriptor = (slug: string): SourceDescriptor => ({
  slug,
  class: 'community_feed',
  trustWeight: 50,
  publicName: slug,
  url: `https://example.org/${slug}`,
});
const risk = (address: string, source: string, category: string): Claim => ({
  address,
  scope: 'evm',
  kind: 'risk',
  category,
  label: null,
  confidence: 80,
  sourceUrl: 'https://example.org/list',
  firstSeenAt: '2024-01-01T00:00:00Z',
  lastSeenAt: '2024-01-01T00:00:00Z',
  source,
});

const importEvents = (source: string, contentHash: string, claims: Claim[]) =>
  datasetDecider.decide(
    {
      type: 'ImportDataset',
      source,
      version: contentHash,
      contentHash,
      claims,
      tokens: [],
      importedAt: '2026-11-22T00:00:00Z',
      descriptor: descriptor(source),
    },
    datasetDecider.initialState(),
  );

async function record(store: EventStore, stream: string, events: readonly { type: string; data: unknown }[]): Promise<void> {
  await store.append(
    stream,
    events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata })),
    { expected: 'any' },
  );
}

async function foldedLog(store: EventStore): Promise<IntelIndexProjection> {
  const index = createIntelIndex();
  for await (const event of store.readAll()) if (index.handles.includes(event.type)) index.apply(event);
  return index;
}

const verdict: VerdictEventRef = { streamPrefix: 'check-as-of', isVerdict: (event: RecordedEvent) => event.type === 'CheckCompleted' };
const categories = (index: IntelIndex | null) => index?.lookup(wallet, 'ETH').claims.map((c) => `${c.source}:${c.category}`);

describe('the intelligence as of a verdict', () => {
  let dir = '';
  let store: EventStore | null = null;
  afterEach(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function logWithReimport(): Promise<EventStore> {
    dir = mkdtempSync(join(tmpdir(), 'intel-as-of-'));
    store = await openTestEventStore(dir);
    await record(
      store,
      datasetStream('feed_a'),
      importEvents('feed_a', 'sha256:a1', [risk(wallet, 'feed_a', 'scam'), risk(other, 'feed_a', 'scam')]),
    );
    await record(store, datasetStream('feed_b'), importEvents('feed_b', 'sha256:b1', [risk(wallet, 'feed_b', 'mixer')]));
    await record(store, 'check-as-of', [{ type: 'CheckCompleted', data: {} }]);
    await record(store, datasetStream('feed_a'), importEvents('feed_a', 'sha256:a2', [risk(wallet, 'feed_a', 'exchange')]));
    return store;
  }

  it('gives a re-imported source’s old claims from its recorded import, and is what a fold from the start gives', async () => {
    const log = await logWithReimport();
    const ask = { addresses: [wallet], verdict, signal: new AbortController().signal };
    const asOf = await intelHistory(log, { live: await foldedLog(log) }).asOf(ask);
    const scanned = await intelHistory(log).asOf(ask);
    expect(categories(asOf)).toEqual(['feed_a:scam', 'feed_b:mixer']);
    expect(asOf?.lookup(wallet, 'ETH')).toEqual(scanned?.lookup(wallet, 'ETH'));
    expect(asOf?.datasets()).toEqual(scanned?.datasets());
    expect(asOf?.snapshot()).toEqual(scanned?.snapshot());
    expect(categories(await foldedLog(log))).toEqual(['feed_b:mixer', 'feed_a:exchange']);
  });

  it('takes a source still at the same content from the live index, not from its recorded batches', async () => {
    const log = await logWithReimport();
    // A live index holding feed_b's very content hash with other rows shows where the as-of rows came from.
    const live = createIntelIndex();
    for (const event of importEvents('feed_b', 'sha256:b1', [risk(wallet, 'feed_b', 'held-live')])) live.apply(event);
    for (const event of importEvents('feed_a', 'sha256:a2', [risk(wallet, 'feed_a', 'exchange')])) live.apply(event);
    const asOf = await intelHistory(log, { live }).asOf({ addresses: [wallet], verdict, signal: new AbortController().signal });
    expect(categories(asOf)).toEqual(['feed_a:scam', 'feed_b:held-live']);
    expect(asOf?.lookup(other, 'ETH').claims).toEqual([]);
  });

  it('answers null when the verdict’s event is not in the log', async () => {
    const log = await logWithReimport();
    const missing = { ...verdict, streamPrefix: 'check-missing' };
    expect(
      await intelHistory(log, { live: await foldedLog(log) }).asOf({
        addresses: [wallet],
        verdict: missing,
        signal: new AbortController().signal,
      }),
    ).toBeNull();
  });
});
