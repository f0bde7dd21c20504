import { describe, expect, it } from 'vitest';
import { chainPosition, type GraphTransfer, type TransferBatch } from '../../domain/ports/transfer-graph.port.js';
import { graphMessageOf, MAX_TRANSFERS_PER_MESSAGE, transfersReadMessages } from './transfer-messages.js';

const transfer = (block: number, kind: 'tx' | 'log', index: number): GraphTransfer => ({
  from: `0x${'a'.repeat(40)}`,
  to: `0x${(block % 10).toString().repeat(40)}`,
  usdMicros: index % 3 === 0 ? null : index,
  at: Date.UTC(2026, 0, 1) + block * 12_000,
  estimated: index % 2 === 0,
  txHash: `0x${(block * 100_000 + index).toString(16).padStart(64, '0')}`,
  position: chainPosition(block, kind, index),
});

const batchOf = (transfers: GraphTransfer[], positions: TransferBatch['positions']): TransferBatch => ({
  network: 'ETH',
  dataset: 'rpc:ETH',
  caveat: null,
  positions,
  finalThrough: 90,
  transfers,
});

const decoded = (batch: TransferBatch) =>
  transfersReadMessages(batch, 'ETH').map((m) => {
    const value = JSON.parse(JSON.stringify(m.value)) as { type: string; data: unknown };
    const message = graphMessageOf(value.type, value.data);
    if (message.type !== 'TransfersRead') throw new Error('a TransfersRead was expected');
    return message.batch;
  });

describe('TransfersRead messages', () => {
  it('carry a batch through the wire unchanged, cut into messages of at most the maximum', () => {
    const transfers = Array.from({ length: 2500 }, (_, i) => transfer(100 + Math.floor(i / 7), 'log', i % 7));
    const parts = decoded(batchOf(transfers, 'chain'));
    expect(parts.map((p) => p.transfers.length)).toEqual([1000, 1000, 500]);
    expect(parts.flatMap((p) => p.transfers)).toEqual(transfers);
    expect(parts.every((p) => p.positions === 'chain' && p.finalThrough === 90)).toBe(true);
  });

  it('keep each (block, kind) of a batch of whole blocks in one message, and send an oversized one in parts per transfer', () => {
    // Blocks of 300 logs and 100 native transfers each: a message holds whole units only.
    const blocks = [1, 2, 3, 4].flatMap((block) => [
      ...Array.from({ length: 100 }, (_, i) => transfer(block, 'tx', i)),
      ...Array.from({ length: 300 }, (_, i) => transfer(block, 'log', i)),
    ]);
    const huge = Array.from({ length: MAX_TRANSFERS_PER_MESSAGE + 5 }, (_, i) => transfer(5, 'log', i));
    const parts = decoded(batchOf([...blocks, ...huge], 'blocks'));
    const unitsOf = (p: TransferBatch) => new Set(p.transfers.map((t) => Math.floor(t.position / 2 ** 23)));
    const seen = new Map<number, number>();
    for (const part of parts) for (const unit of unitsOf(part)) seen.set(unit, (seen.get(unit) ?? 0) + 1);
    expect([...seen.entries()].filter(([unit, n]) => n > 1 && unit !== 5 * 2 + 1)).toEqual([]);
    expect(parts.map((p) => [p.positions, p.transfers.length])).toEqual([
      ['blocks', 900],
      ['chain', 1000],
      ['chain', 5],
      ['blocks', 700],
    ]);
    expect(parts.flatMap((p) => p.transfers).sort((a, b) => a.position - b.position)).toEqual(
      [...blocks, ...huge].sort((a, b) => a.position - b.position),
    );
  });
});
