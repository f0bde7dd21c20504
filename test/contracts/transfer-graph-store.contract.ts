import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { FlowDirection, FlowPage } from '../../domain/ports/chain-data.port.js';
import { chainPosition, type GraphTransfer, type TransferBatch, type TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import type { Network } from '../../domain/shared/network.js';

/**
 * One suite for every TransferGraphStore adapter, written against the port only. `open` hands out an empty
 * store whose super-node bound is `bound` (small here, so that the bound is reached by a test).
 */

const BOUND = 3;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const MIXED = '0xAbCd000000000000000000000000000000000001';
const LOWER = MIXED.toLowerCase();
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** A transfer of `usd` dollars (null: unpriced) in `block`, log `index`. */
export function transferAt(from: string, to: string, usd: number | null, block: number, index = 0): GraphTransfer {
  return {
    from,
    to,
    usdMicros: usd === null ? null : usd * 1e6,
    at: T0 + block * 12_000,
    estimated: false,
    txHash: hash(block * 1000 + index),
    position: chainPosition(block, 'log', index),
  };
}

export const chainBatch = (transfers: readonly GraphTransfer[], extra: Partial<TransferBatch> = {}): TransferBatch => ({
  network: 'ETH',
  dataset: 'rpc:ETH',
  caveat: null,
  positions: 'chain',
  finalThrough: null,
  transfers,
  ...extra,
});

/** Everything the store answers about `addresses`: what two equal graphs answer alike. */
export async function snapshotOf(store: TransferGraphStore, addresses: readonly string[], network: Network = 'ETH') {
  const rows = async (address: string, direction: FlowDirection) => {
    const page = await store.flows(address, network, direction, 100);
    return {
      totals: page.totals,
      rows: Array.from({ length: page.size }, (_, i) => [page.counterparty(i), page.usdMicros(i), page.transfers(i), page.estimated(i)]),
    };
  };
  const out: Record<string, unknown> = {};
  for (const address of addresses)
    out[address] = { activity: await store.activity(address, network), in: await rows(address, 'in'), out: await rows(address, 'out') };
  return out;
}

export function transferGraphStoreContract(
  name: string,
  open: (bound: number) => Promise<TransferGraphStore>,
  /** flowsOfMany: the store reads several addresses' pages in one call (TransferIndex.flowsOfMany). */
  options: { flowsOfMany?: boolean } = {},
): void {
  describe(`TransferGraphStore contract: ${name}`, () => {
    const opened: TransferGraphStore[] = [];
    const fresh = async (bound = BOUND) => {
      const store = await open(bound);
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('aggregates transfers per pair, each direction heaviest first, with totals, times and the earliest transaction', async () => {
      const store = await fresh();
      await store.fold([
        chainBatch([
          transferAt(MIXED, 'b', 100, 10),
          transferAt(LOWER, 'b', 50, 12, 3),
          transferAt('c', 'b', 400, 11),
          transferAt('b', 'd', 300, 13),
          transferAt('e', 'b', null, 14),
        ]),
      ]);
      const incoming = await store.flows('b', 'ETH', 'in', 10);
      expect(incoming.totals).toEqual({ transfers: 4, usdMicros: 550e6, counterparties: 3, unpricedTransfers: 1, estimated: false });
      expect(
        Array.from({ length: incoming.size }, (_, i) => [incoming.counterparty(i), incoming.usdMicros(i), incoming.transfers(i)]),
      ).toEqual([
        ['c', 400e6, 1],
        [LOWER, 150e6, 2],
        ['e', 0, 1],
      ]);
      expect(incoming.sampleTx(1)).toBe(hash(10_000));
      const limited = await store.flows('b', 'ETH', 'in', 1);
      expect([limited.size, limited.counterparty(0), limited.totals.counterparties]).toEqual([1, 'c', 3]);
      expect(await store.activity('B', 'ETH')).toBeNull();
      expect(await store.activity('b', 'ETH')).toEqual({
        incoming: incoming.totals,
        outgoing: { transfers: 1, usdMicros: 300e6, counterparties: 1, unpricedTransfers: 0, estimated: false },
        firstAt: new Date(T0 + 10 * 12_000).toISOString(),
        lastAt: new Date(T0 + 14 * 12_000).toISOString(),
      });
      expect(await store.activity(MIXED, 'ETH')).toMatchObject({ outgoing: { transfers: 2 } });
      expect(await store.activity('b', 'TRON')).toBeNull();
      expect((await store.flows('nobody', 'ETH', 'out', 10)).size).toBe(0);
    });

    it('folds a transfer once by its position, whichever batch or source brings it again', async () => {
      const store = await fresh();
      const transfers = [transferAt('a', 'b', 10, 1), transferAt('a', 'b', 20, 2), transferAt('b', 'c', 5, 2, 1)];
      expect(await store.fold([chainBatch(transfers)])).toEqual({ folded: 3, skipped: 0 });
      const once = await snapshotOf(store, ['a', 'b', 'c']);
      expect(await store.fold([chainBatch(transfers)])).toEqual({ folded: 0, skipped: 3 });
      expect(await store.fold([chainBatch(transfers.slice(1), { dataset: 'bigquery:token_transfers' })])).toEqual({
        folded: 0,
        skipped: 2,
      });
      expect(await snapshotOf(store, ['a', 'b', 'c'])).toEqual(once);
      expect(await store.size('ETH')).toBe(3);
      // Rows of data sets without blocks are distinct per data set.
      const rows = (dataset: string) => chainBatch([{ ...transferAt('a', 'b', 1, 0), position: 1 }], { dataset, positions: 'rows' });
      expect(await store.fold([rows('sample-1')])).toEqual({ folded: 1, skipped: 0 });
      expect(await store.fold([rows('sample-2')])).toEqual({ folded: 1, skipped: 0 });
      expect(await store.fold([rows('sample-2')])).toEqual({ folded: 0, skipped: 1 });
      expect((await store.coverage('ETH')).datasets.map((d) => [d.name, d.transfers]).sort()).toEqual([
        ['rpc:ETH', 3],
        ['sample-1', 1],
        ['sample-2', 1],
      ]);
    });

    it('skips transfers from an address to itself, and keeps networks apart', async () => {
      const store = await fresh();
      expect(await store.fold([chainBatch([transferAt('a', 'a', 10, 1), transferAt('a', 'b', 10, 1, 1)])])).toEqual({
        folded: 1,
        skipped: 1,
      });
      await store.fold([chainBatch([transferAt('TXa', 'TXb', 7, 1, 1)], { network: 'TRON', dataset: 'rpc:TRON' })]);
      expect(await store.activity('TXb', 'TRON')).toMatchObject({ incoming: { usdMicros: 7e6 } });
      expect(await store.activity('TXb', 'ETH')).toBeNull();
      expect((await store.coverage('TRON')).datasets).toEqual([
        {
          name: 'rpc:TRON',
          transfers: 1,
          from: new Date(T0 + 12_000).toISOString(),
          to: new Date(T0 + 12_000).toISOString(),
          caveat: null,
          kind: 'ingested_blocks',
          version: 'blocks up to 1',
          asOf: new Date(T0 + 12_000).toISOString(),
          upToBlock: 1,
        },
      ]);
    });

    it('names what each data set is, as verdicts cite it: blocks up to the last one folded, a sample by its version', async () => {
      const store = await fresh();
      await store.fold([chainBatch([transferAt('a', 'b', 1, 40)])]);
      await store.fold([chainBatch([transferAt('a', 'c', 1, 45, 2)])]);
      const sample = { ...transferAt('a', 'd', 1, 0), position: 7 };
      await store.fold([chainBatch([sample], { dataset: 'sample.csv', positions: 'rows', kind: 'sample', version: 'sha256:abc' })]);
      await store.fold([chainBatch([transferAt('a', 'e', 1, 50)], { dataset: 'rpc:follower', positions: 'blocks' })]);
      const byName = Object.fromEntries((await store.coverage('ETH')).datasets.map((d) => [d.name, d]));
      expect(byName['rpc:ETH']).toMatchObject({ kind: 'ingested_blocks', version: 'blocks up to 45', upToBlock: 45 });
      expect(byName['rpc:follower']).toMatchObject({ kind: 'ingested_blocks', version: 'blocks up to 50', upToBlock: 50 });
      expect(byName['sample.csv']).toMatchObject({
        kind: 'sample',
        version: 'sha256:abc',
        upToBlock: null,
        asOf: new Date(T0).toISOString(),
      });
    });

    it('keeps the heaviest counterparties of a super-node, whatever the order, and counts the others in its totals', async () => {
      const transfers = [5, 1, 9, 3, 7, 2, 8].map((usd, i) => transferAt(`s${usd}`, 'hub', usd, i + 1));
      // The light s1 grows to 20 dollars later: it must be kept then.
      const later = transferAt('s1', 'hub', 19, 20);
      await fc.assert(
        fc.asyncProperty(fc.shuffledSubarray(transfers, { minLength: transfers.length }), async (order) => {
          const store = await open(BOUND);
          try {
            for (const t of order) await store.fold([chainBatch([t])]);
            await store.fold([chainBatch([later])]);
            const page = await store.flows('hub', 'ETH', 'in', 100);
            expect(Array.from({ length: page.size }, (_, i) => page.counterparty(i))).toEqual(['s1', 's9', 's8']);
            expect(page.totals).toMatchObject({ counterparties: 7, transfers: 8, usdMicros: 54e6 });
            expect(page.kept).toBe(BOUND);
            // The other side of a pair in the hub's remainder still sees it.
            expect((await store.flows('s2', 'ETH', 'out', 10)).counterparty(0)).toBe('hub');
          } finally {
            await store.close();
          }
        }),
        { numRuns: 8 },
      );
    }, 120_000);

    // Only a store that offers batched reads (the PostgreSQL one); the LMDB store answers each page at once.
    it.runIf(options.flowsOfMany)(
      'reads several pages at once as each alone: order, repeats, super-node remainders, both directions',
      async () => {
        const store = await fresh();
        const many = store.flowsOfMany;
        if (!many) throw new Error('this store was said to read pages in batches');
        const hubIn = [5, 1, 9, 3, 7].map((usd, i) => transferAt(`s${usd}`, 'hub', usd, i + 1));
        await store.fold([
          chainBatch([...hubIn, transferAt('hub', 'r1', 4, 10), transferAt('s9', 'r1', 2, 11), transferAt(MIXED, 's9', 1, 12)]),
        ]);
        // The hub past the bound (a remainder), an address unknown to the store, one asked twice, a mixed-case one.
        const asked = ['s9', 'hub', 'nobody', LOWER, 'hub', 'r1', MIXED];
        for (const direction of ['in', 'out'] as const) {
          for (const limit of [0, 2, 100]) {
            const pages = await many.call(store, asked, 'ETH', direction, limit);
            const rowsOf = (page: FlowPage) => ({
              size: page.size,
              totals: page.totals,
              kept: page.kept,
              rows: Array.from({ length: page.size }, (_, i) => [
                page.counterparty(i),
                page.usdMicros(i),
                page.transfers(i),
                page.estimated(i),
                page.sampleTx(i),
              ]),
            });
            const alone = await Promise.all(asked.map(async (address) => rowsOf(await store.flows(address, 'ETH', direction, limit))));
            expect(pages.map(rowsOf)).toEqual(alone);
          }
        }
        expect(await many.call(store, [], 'ETH', 'in', 10)).toEqual([]);
        const hub = (await many.call(store, ['hub'], 'ETH', 'in', 100))[0];
        expect(hub?.size).toBe(BOUND);
        expect(hub?.totals.counterparties).toBe(5);
      },
    );

    it('counts a batch of whole blocks once per (block, kind), beside sources that bring transfers one by one', async () => {
      const store = await fresh();
      const native = { ...transferAt('a', 'c', 3, 1), position: chainPosition(1, 'tx', 0) };
      const block1 = [transferAt('a', 'b', 10, 1), transferAt('b', 'c', 5, 1, 1), native];
      expect(await store.fold([chainBatch(block1, { positions: 'blocks' })])).toEqual({ folded: 3, skipped: 0 });
      expect(await store.fold([chainBatch(block1, { positions: 'blocks' })])).toEqual({ folded: 0, skipped: 3 });
      // An export's row of a block folded whole is skipped; a block an export brought in part is completed once.
      expect(await store.fold([chainBatch([transferAt('a', 'b', 10, 1)], { dataset: 'bigquery:token_transfers' })])).toEqual({
        folded: 0,
        skipped: 1,
      });
      expect(await store.fold([chainBatch([transferAt('c', 'd', 7, 2)], { dataset: 'bigquery:token_transfers' })])).toEqual({
        folded: 1,
        skipped: 0,
      });
      const block2 = [transferAt('c', 'd', 7, 2), transferAt('d', 'e', 1, 2, 1)];
      expect(await store.fold([chainBatch(block2, { positions: 'blocks' })])).toEqual({ folded: 1, skipped: 1 });
      expect(await store.fold([chainBatch([transferAt('d', 'e', 1, 2, 1)], { dataset: 'bigquery:token_transfers' })])).toEqual({
        folded: 0,
        skipped: 1,
      });
      const reference = await fresh();
      await reference.fold([chainBatch([...block1, ...block2])]);
      expect(await snapshotOf(store, ['a', 'b', 'c', 'd', 'e'])).toEqual(await snapshotOf(reference, ['a', 'b', 'c', 'd', 'e']));
      expect(await store.size('ETH')).toBe(5);
    });

    it('folds several batches in one call as one after the other, whole blocks published twice included', async () => {
      const blocks = (from: number, to: number, finalThrough: number | null = null) =>
        chainBatch(
          Array.from({ length: (to - from + 1) * 2 }, (_, i) => {
            const block = from + Math.floor(i / 2);
            return transferAt('abcdef'[(block + i) % 6]!, 'abcdef'[(block * 5 + i + 1) % 6]!, 10 + ((block * 7 + i) % 13), block, i % 2);
          }),
          { positions: 'blocks', finalThrough },
        );
      const batches = [
        blocks(1, 3),
        blocks(2, 5),
        chainBatch([transferAt('a', 'f', 7, 6, 0), transferAt('b', 'f', 9, 6, 1)]),
        chainBatch([transferAt('b', 'f', 9, 6, 1), transferAt('c', 'e', 90, 6, 2)]),
        blocks(6, 6),
        blocks(7, 9, 8),
        blocks(9, 10, 8),
      ];
      const oneByOne = await fresh();
      const together = await fresh();
      for (const batch of batches) await oneByOne.fold([batch]);
      expect(await together.fold(batches)).toEqual({ folded: await oneByOne.size('ETH'), skipped: expect.any(Number) as number });
      const everyone = ['a', 'b', 'c', 'd', 'e', 'f'];
      expect(await snapshotOf(together, everyone)).toEqual(await snapshotOf(oneByOne, everyone));
      expect(await together.revert('ETH', 9)).toEqual(await oneByOne.revert('ETH', 9));
      expect(await snapshotOf(together, everyone)).toEqual(await snapshotOf(oneByOne, everyone));
    });

    it.each(['chain', 'blocks'] as const)(
      'undoes the transfers of reverted blocks above the final height, and only those (positions %s)',
      async (positions) => {
        const canonical = [
          transferAt('a', 'b', 100, 1),
          transferAt('b', 'c', 40, 2),
          transferAt('a', 'b', 10, 3),
          transferAt('c', 'd', 5, 4),
        ];
        // Block 7 of the orphaned fork holds a transfer to itself only (folded as nothing, its block still marked).
        const orphaned = [
          transferAt('a', 'b', 1000, 5),
          transferAt('b', 'x', 60, 5, 1),
          transferAt('c', 'd', 70, 6),
          transferAt('q', 'q', 1, 7),
        ];
        const replacement = [transferAt('a', 'y', 3, 5), transferAt('b', 'c', 2, 6, 2), transferAt('a', 'z', 4, 7)];
        const reference = await fresh();
        await reference.fold([chainBatch([...canonical, ...replacement])]);

        const store = await fresh();
        await store.fold([chainBatch(canonical, { finalThrough: 2, positions })]);
        await store.fold([chainBatch(orphaned, { finalThrough: 3, positions })]);
        expect(await store.revert('ETH', 5)).toEqual({ reverted: 3 });
        await store.fold([chainBatch(replacement, { finalThrough: 4, positions })]);
        const everyone = ['a', 'b', 'c', 'd', 'x', 'y', 'z', 'q'];
        expect(await snapshotOf(store, everyone)).toEqual(await snapshotOf(reference, everyone));
        expect(await store.size('ETH')).toBe(7);
        // Blocks at or below the final height are not undone (a deeper reorganisation), nor folded again.
        await store.finalize('ETH', 7);
        expect(await store.revert('ETH', 1)).toEqual({ reverted: 0 });
        expect(await store.fold([chainBatch(replacement, { positions })])).toEqual({ folded: 0, skipped: 3 });
        expect(await snapshotOf(store, everyone)).toEqual(await snapshotOf(reference, everyone));
      },
    );

    it('gives the same graph whatever the batches a fold from scratch was cut into', async () => {
      const addresses = ['a', 'b', 'c', 'd', 'e', 'f'];
      const arbitraryTransfers = fc
        .uniqueArray(
          fc.record({
            from: fc.constantFrom(...addresses),
            to: fc.constantFrom(...addresses),
            usd: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }),
            block: fc.integer({ min: 1, max: 40 }),
            index: fc.integer({ min: 0, max: 3 }),
          }),
          { selector: (t) => `${t.block}:${t.index}`, maxLength: 40 },
        )
        .map((rows) => rows.map((t) => transferAt(t.from, t.to, t.usd, t.block, t.index)));
      await fc.assert(
        fc.asyncProperty(arbitraryTransfers, fc.integer({ min: 1, max: 7 }), async (transfers, cut) => {
          const whole = await open(BOUND);
          const cutUp = await open(BOUND);
          try {
            await whole.fold([chainBatch(transfers)]);
            for (let i = 0; i < transfers.length; i += cut) await cutUp.fold([chainBatch(transfers.slice(i, i + cut))]);
            // Redelivered batches change nothing.
            await cutUp.fold([chainBatch(transfers.slice(0, cut))]);
            expect(await snapshotOf(cutUp, addresses)).toEqual(await snapshotOf(whole, addresses));
          } finally {
            await Promise.all([whole.close(), cutUp.close()]);
          }
        }),
        { numRuns: 15 },
      );
      // Thirty stores opened: a server store migrates a schema for each.
    }, 120_000);

    it('keeps the state of an ingester or importer', async () => {
      const store = await fresh();
      expect(await store.readSource('rpc:ETH')).toBeNull();
      await store.writeSource('rpc:ETH', { block: 12, hashes: ['0x1'] });
      expect(await store.readSource('rpc:ETH')).toEqual({ block: 12, hashes: ['0x1'] });
    });
  });
}
