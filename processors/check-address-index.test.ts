import { afterEach, describe, expect, it } from 'vitest';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { openTempReadStore } from '../test/support/temp-read-store.js';
import { anyCheckSince, CHECK_ADDRESSES, checksOfAddresses, type CheckAddressDoc } from './check-address-index.processor.js';

/** The index as the projection writes it: one document per (address, check). */
const opened: ReadStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

async function emptyIndex(): Promise<ReadStore> {
  const readStore = await openTempReadStore();
  opened.push(readStore);
  return readStore;
}

async function indexOf(entries: readonly [address: string, checkId: string, checkedAt: string][]) {
  const readStore = await emptyIndex();
  const docs = readStore.collection<CheckAddressDoc>(CHECK_ADDRESSES, [['address', 'checked_at']]);
  let position = 0n;
  for (const [address, checkId, checkedAt] of entries) {
    position += 1n;
    const doc: CheckAddressDoc = { id: `${address}|${checkId}`, address, check_id: checkId, checked_at: checkedAt };
    await docs.apply(doc.id, { commit: position, prepare: position }, () => doc);
  }
  return readStore;
}

const ENTRIES: [string, string, string][] = [
  ['0xa1', 'chk-1', '2026-10-01T00:00:00Z'],
  ['0xb2', 'chk-1', '2026-10-01T00:00:00Z'],
  ['0xb2', 'chk-2', '2026-11-01T00:00:00Z'],
  ['0xc3', 'chk-3', '2026-06-01T00:00:00Z'],
];

describe('the checks of the addresses a change touched', () => {
  it('looks each address up when the change touches fewer addresses than the window holds', async () => {
    const checksOf = checksOfAddresses(await indexOf(ENTRIES));
    expect([...(await checksOf(new Set(['0xb2']), '2026-09-01T00:00:00Z'))].sort()).toEqual(['chk-1', 'chk-2']);
  });

  it('walks the window instead when the change touches more addresses than it holds, with the same answer', async () => {
    const checksOf = checksOfAddresses(await indexOf(ENTRIES));
    const many = new Set(['0xb2', '0xc3', ...Array.from({ length: 20 }, (_, i) => `0xf${i}`)]);
    // 0xc3's check is older than the window: not re-evaluated.
    expect([...(await checksOf(many, '2026-09-01T00:00:00Z'))].sort()).toEqual(['chk-1', 'chk-2']);
  });

  it('says whether any check is in the window, so a change is not diffed for nothing', async () => {
    const readStore = await indexOf(ENTRIES);
    expect(await anyCheckSince(readStore)('2026-09-01T00:00:00Z')).toBe(true);
    expect(await anyCheckSince(readStore)('2026-12-01T00:00:00Z')).toBe(false);
    expect(await anyCheckSince(await emptyIndex())('2026-01-01T00:00:00Z')).toBe(false);
  });
});
