import { describe, expect, it } from 'vitest';
import type { TransferBatch } from '../../domain/ports/transfer-graph.port.js';
import { chainBatch, transferAt } from '../../test/contracts/transfer-graph-store.contract.js';
import { mergedBatches } from './pg-merged-batches.js';

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const ADDRESSES = Array.from({ length: 6 }, (_, i) => address(i + 1));
// Folded together and one by one, the batches give one graph: the store contract (test/contracts) checks it.

/** Whole blocks `from`..`to`, three transfers each among the six addresses. */
const blocks = (from: number, to: number, extra: Partial<TransferBatch> = {}): TransferBatch =>
  chainBatch(
    Array.from({ length: (to - from + 1) * 3 }, (_, i) => {
      const block = from + Math.floor(i / 3);
      return transferAt(ADDRESSES[(block + i) % 6]!, ADDRESSES[(block * 5 + i + 1) % 6]!, 10 + ((block * 7 + i) % 13), block, i % 3);
    }),
    { positions: 'blocks', ...extra },
  );

describe('mergedBatches', () => {
  it('joins consecutive batches of one header and keeps a change of header apart, in order', () => {
    const merged = mergedBatches([blocks(1, 2), blocks(3, 4), blocks(5, 5, { finalThrough: 4 }), blocks(6, 6)]);
    expect(merged.map((b) => [b.transfers.length, b.finalThrough])).toEqual([
      [12, null],
      [3, 4],
      [3, null],
    ]);
    expect(merged[0]!.transfers.map((t) => t.position)).toEqual(
      [...blocks(1, 2).transfers, ...blocks(3, 4).transfers].map((t) => t.position),
    );
  });

  it('leaves out the blocks a later batch of whole blocks repeats (as the fold would skip them)', () => {
    const [merged] = mergedBatches([blocks(1, 3), blocks(2, 4)]);
    expect(merged!.transfers.map((t) => t.position)).toEqual([...blocks(1, 3).transfers, ...blocks(4, 4).transfers].map((t) => t.position));
  });
});
