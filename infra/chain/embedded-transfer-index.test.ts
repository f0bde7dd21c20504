import { describe, expect, it } from 'vitest';
import { generateSyntheticGraph, syntheticAddress } from '../../test/synthetic/synthetic-graph.js';
import { createEmbeddedTransferIndex } from './embedded-transfer-index.js';

const T = Date.parse('2025-03-01T00:00:00Z');
const usd = (dollars: number) => dollars * 1e6;

describe('the embedded transfer index', () => {
  it('aggregates transfers per counterparty, heaviest first, with totals over every counterparty', async () => {
    const index = createEmbeddedTransferIndex();
    index.add('ETH', { name: 'set-a', caveat: 'made up' }, [
      {
        from: '0xAA00000000000000000000000000000000000001',
        to: '0xbb00000000000000000000000000000000000002',
        usdMicros: usd(10),
        at: T,
        txHash: '0x01',
      },
      {
        from: '0xaa00000000000000000000000000000000000001',
        to: '0xbb00000000000000000000000000000000000002',
        usdMicros: usd(5),
        at: T + 1000,
      },
      {
        from: '0xcc00000000000000000000000000000000000003',
        to: '0xbb00000000000000000000000000000000000002',
        usdMicros: usd(100),
        at: T + 2000,
        estimated: true,
      },
      {
        from: '0xdd00000000000000000000000000000000000004',
        to: '0xbb00000000000000000000000000000000000002',
        usdMicros: null,
        at: T + 3000,
      },
    ]);
    const page = await index.flows('0xbb00000000000000000000000000000000000002', 'ETH', 'in', 2);
    expect(page.size).toBe(2);
    expect(page.totals).toEqual({ transfers: 4, usdMicros: usd(115), counterparties: 3, unpricedTransfers: 1, estimated: true });
    expect([0, 1].map((row) => [page.counterparty(row), page.usdMicros(row), page.transfers(row), page.estimated(row)])).toEqual([
      ['0xcc00000000000000000000000000000000000003', usd(100), 1, true],
      ['0xaa00000000000000000000000000000000000001', usd(15), 2, false],
    ]);
    expect(page.sampleTx(1)).toBe('0x01');
    expect(await index.activity('0xBB00000000000000000000000000000000000002', 'ETH')).toMatchObject({
      incoming: { transfers: 4 },
      outgoing: { transfers: 0 },
      firstAt: new Date(T).toISOString(),
      lastAt: new Date(T + 3000).toISOString(),
    });
    expect(await index.activity('0xbb00000000000000000000000000000000000002', 'BSC')).toBeNull();
    expect(await index.coverage('ETH')).toEqual({
      network: 'ETH',
      datasets: [
        {
          name: 'set-a',
          transfers: 4,
          from: new Date(T).toISOString(),
          to: new Date(T + 3000).toISOString(),
          caveat: 'made up',
          kind: 'synthetic',
          version: null,
          asOf: new Date(T + 3000).toISOString(),
          upToBlock: null,
        },
      ],
    });
  });

  it('names what its data is: a sample by its content hash, ingested blocks by the last block reached', async () => {
    const index = createEmbeddedTransferIndex();
    index.add('ETH', { name: 'sample.csv', kind: 'sample', version: 'sha256:abc' }, [{ from: '0xa1', to: '0xb1', usdMicros: 1, at: T }]);
    index.add('ETH', { name: 'rpc:ETH', kind: 'ingested_blocks', upToBlock: 120 }, [{ from: '0xa1', to: '0xb2', usdMicros: 1, at: T + 1 }]);
    index.add('ETH', { name: 'rpc:ETH', kind: 'ingested_blocks', upToBlock: 180 }, [{ from: '0xa2', to: '0xb2', usdMicros: 1, at: T + 2 }]);
    const [sample, ingested] = (await index.coverage('ETH')).datasets;
    expect(sample).toMatchObject({ kind: 'sample', version: 'sha256:abc', asOf: new Date(T).toISOString(), upToBlock: null });
    expect(ingested).toMatchObject({
      kind: 'ingested_blocks',
      version: 'blocks up to 180',
      upToBlock: 180,
      asOf: new Date(T + 2).toISOString(),
    });
  });

  it('sees transfers added after a read (the layout is rebuilt lazily)', async () => {
    const index = createEmbeddedTransferIndex();
    index.add('TRON', { name: 'one' }, [{ from: 'Ta', to: 'Tb', usdMicros: 1, at: T }]);
    expect((await index.activity('Tb', 'TRON'))?.incoming.transfers).toBe(1);
    index.add('TRON', { name: 'two' }, [{ from: 'Tc', to: 'Tb', usdMicros: 1, at: T }]);
    expect((await index.activity('Tb', 'TRON'))?.incoming.counterparties).toBe(2);
    expect(index.size('TRON')).toBe(2);
  });

  it('holds a synthetic power-law graph: deterministic, hubs far above the mean degree', async () => {
    const a = generateSyntheticGraph({ addresses: 2000, transfers: 20_000, seed: 7 });
    const b = generateSyntheticGraph({ addresses: 2000, transfers: 20_000, seed: 7 });
    expect(a.from).toEqual(b.from);
    expect(a.usdMicros).toEqual(b.usdMicros);
    const index = createEmbeddedTransferIndex();
    const builder = index.builderOf('ETH');
    for (let i = 0; i < a.addresses; i++) builder.intern(syntheticAddress(i));
    for (let i = 0; i < a.from.length; i++) builder.addIds(a.from[i]!, a.to[i]!, a.usdMicros[i]!, a.at[i]!);
    let max = 0;
    for (let i = 0; i < a.addresses; i++) {
      const activity = await index.activity(syntheticAddress(i), 'ETH');
      max = Math.max(max, activity?.incoming.counterparties ?? 0);
    }
    expect(max).toBeGreaterThan(20 * (20_000 / 2000));
    expect([...a.labels.values()].map((l) => l.category)).toEqual(expect.arrayContaining(['exchange', 'mixer', 'sanctions']));
  });
});
