import { describe, expect, it } from 'vitest';
import { edge, fixtureIndex, label, labelsOf } from '../../test/support/transfer-fixtures.js';
import type { FlowPage } from '../ports/chain-data.port.js';
import type { ExposureBudget } from './exposure.schema.js';
import { searchExposure } from './exposure-search.js';

const BUDGET: ExposureBudget = { maxNodes: 1000, maxEdges: 10_000, maxHops: 6, timeMs: 10_000, perNodeLimit: 1000 };
const STOLEN = label('stolen_funds', 8, 'high', 'Example exploiter');
const EXCHANGE = label('exchange', 1, 'low', 'Example Exchange');
const SANCTIONED = label('sanctions', 10, 'sanctioned');

/**
 * r (stolen funds) → a → b → d, with clean money mixed in on the way:
 *   r→a 1000; a→b 600, c→b 400 (c has no history); b→d 500, e→d 500, x(exchange)→e 800.
 * d's incoming: half from b (b: 60 % from a, all of it from r), half from e (all of it from the exchange).
 */
const GRAPH = [
  edge('r', 'a', 1000),
  edge('a', 'b', 600),
  edge('c', 'b', 400),
  edge('b', 'd', 500),
  edge('e', 'd', 500),
  edge('x', 'e', 800),
  edge('s', 'x', 5000),
];
const LABELS = labelsOf({ r: STOLEN, x: EXCHANGE, s: SANCTIONED });

async function search(
  options: {
    graph?: typeof GRAPH;
    anchor?: string;
    direction?: 'in' | 'out';
    budget?: Partial<ExposureBudget>;
    labels?: typeof LABELS;
    superNodeBound?: number;
  } = {},
) {
  const bound = options.superNodeBound;
  const index = await fixtureIndex(options.graph ?? GRAPH, 'ETH', bound === undefined ? {} : { superNodeBound: bound });
  let tick = 0;
  return searchExposure(
    { flows: (...args) => index.flows(...args), classify: options.labels ?? LABELS, now: () => tick++ },
    { address: options.anchor ?? 'd', network: 'ETH', direction: options.direction ?? 'in', budget: { ...BUDGET, ...options.budget } },
  );
}

describe('breadth-first exposure search', () => {
  it('traces the USD share of incoming funds through unlabelled hops to the labelled source, with the route', async () => {
    const result = await search();
    expect(result.complete).toBe(true);
    expect(result.weighting).toBe('usd');
    expect(result.totalUsdMicros).toBe(1000e6);
    const [stolen, exchange] = result.categories;
    expect(stolen).toMatchObject({ slug: 'stolen_funds', usdMicros: 300e6, minHops: 3, entities: 1 });
    expect(stolen!.share).toBeCloseTo(0.3, 10);
    expect(stolen!.weightedShare).toBeCloseTo(0.3 * 0.25, 10);
    expect(stolen!.paths).toEqual([
      {
        hops: 3,
        addresses: ['r', 'a', 'b', 'd'],
        usdMicros: 300e6,
        share: expect.closeTo(0.3, 10),
        label: 'Example exploiter',
        source: 'fixture_source',
        usdEstimated: false,
      },
    ]);
    expect(exchange).toMatchObject({ slug: 'exchange', usdMicros: 500e6, minHops: 2 });
    expect(result.unattributedShare).toBeCloseTo(0.2, 10);
  });

  it('stops at a service: what reached the exchange is not traced behind it', async () => {
    const result = await search();
    expect(result.categories.map((c) => c.slug)).not.toContain('sanctions');
  });

  it('follows outgoing funds in the direction they moved, anchor first', async () => {
    const result = await search({ anchor: 'r', direction: 'out', graph: [...GRAPH, edge('d', 's', 100)] });
    const sanctions = result.categories.find((c) => c.slug === 'sanctions')!;
    // r sent everything to a; a sent all to b; b sent all to d; d sent its only outgoing 100 to s.
    expect(sanctions.share).toBeCloseTo(1, 10);
    expect(sanctions.paths[0]!.addresses).toEqual(['r', 'a', 'b', 'd', 's']);
    expect(sanctions.minHops).toBe(4);
  });

  it('is not complete when a budget cuts it short, and says which', async () => {
    const hops = await search({ budget: { maxHops: 2 } });
    expect(hops).toMatchObject({ complete: false, stoppedBy: 'max_hops' });
    expect(hops.categories.map((c) => c.slug)).toEqual(['exchange']);
    expect(await search({ budget: { maxNodes: 2 } })).toMatchObject({ complete: false, stoppedBy: 'max_nodes' });
    expect(await search({ budget: { maxEdges: 3 } })).toMatchObject({ complete: false, stoppedBy: 'max_edges' });
    expect(await search({ budget: { timeMs: 1 } })).toMatchObject({ complete: false, stoppedBy: 'time' });
    expect(await search({ budget: { perNodeLimit: 1 } })).toMatchObject({ complete: false, stoppedBy: 'per_node_limit' });
  });

  it('does not loop on cycles, and funds coming back to the anchor add nothing', async () => {
    const result = await search({ graph: [edge('a', 'b', 100), edge('b', 'a', 100), edge('r', 'b', 100)], anchor: 'a' });
    expect(result.complete).toBe(true);
    expect(result.categories[0]).toMatchObject({ slug: 'stolen_funds', minHops: 2 });
    expect(result.categories[0]!.share).toBeCloseTo(0.5, 10);
  });

  it('weights by transfer count when the anchor has no priced transfer, and says so', async () => {
    const result = await search({ graph: [edge('r', 'd', null), edge('c', 'd', null), edge('c', 'd', null)] });
    expect(result.weighting).toBe('transfer_count');
    expect(result.categories[0]!.share).toBeCloseTo(1 / 3, 10);
    expect(result.categories[0]!.usdMicros).toBe(0);
  });

  it('leaves dust unfollowed without calling the search incomplete', async () => {
    const result = await search({ graph: [edge('a', 'd', 1_000_000), edge('b', 'd', 1), edge('r', 'b', 1)] });
    expect(result.complete).toBe(true);
    expect(result.categories).toEqual([]);
  });

  it('lets other work run during a long search (breathes), with the same result', async () => {
    const index = await fixtureIndex(GRAPH);
    let tick = 0;
    let breaths = 0;
    const result = await searchExposure(
      { flows: (...args) => index.flows(...args), classify: LABELS, now: () => (tick += 15), breathe: async () => void breaths++ },
      { address: 'd', network: 'ETH', direction: 'in', budget: { ...BUDGET, timeMs: 1e9 } },
    );
    expect(breaths).toBeGreaterThan(0);
    expect(result.categories.map((c) => [c.slug, c.usdMicros])).toEqual((await search()).categories.map((c) => [c.slug, c.usdMicros]));
  });

  it('names the services it stopped at, with the share that reached them, and no remainder when every page was whole', async () => {
    const result = await search();
    expect(result.stops).toEqual({
      services: [
        { address: 'x', category: 'exchange', label: 'Example Exchange', hops: 2, share: expect.closeTo(0.5, 10), usdMicros: 500e6 },
      ],
      servicesTotal: 1,
      remainders: [],
      remaindersTotal: 0,
    });
  });

  /** w received 100 from hub; hub received from eight senders, s8 (an exchange) the heaviest: 10..80 USD, 360 in all. */
  const HUB = [...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => edge(`s${n}`, 'hub', n * 10)), edge('hub', 'w', 100)];
  const HUB_LABELS = labelsOf({ s8: EXCHANGE });

  it("stops at a super-node's aggregated remainder and says so, with the part of the anchor's flow left there", async () => {
    const result = await search({ graph: HUB, anchor: 'w', labels: HUB_LABELS, superNodeBound: 3 });
    // The store keeps hub's 3 heaviest senders (s8, s7, s6: 210 USD); the other 5 (150 USD) are one remainder.
    expect(result.stops?.remainders).toEqual([
      {
        address: 'hub',
        hops: 1,
        counterparties: 5,
        share: expect.closeTo(150 / 360, 10),
        usdMicros: Math.round((150 / 360) * 100e6),
        remainderUsdMicros: 150e6,
        superNode: true,
      },
    ]);
    expect(result.stops?.services).toEqual([expect.objectContaining({ address: 's8', hops: 2, share: expect.closeTo(80 / 360, 10) })]);
    expect(result.categories.map((c) => c.slug)).toEqual(['exchange']);
  });

  it('tells a remainder cut by the per-node limit from a super-node: the store holds those counterparties one by one', async () => {
    const result = await search({ graph: HUB, anchor: 'hub', labels: HUB_LABELS, budget: { perNodeLimit: 3 } });
    expect(result.stops).toMatchObject({
      remainders: [{ address: 'hub', hops: 0, counterparties: 5, share: expect.closeTo(150 / 360, 10), superNode: false }],
      remaindersTotal: 1,
    });
    expect(result.stoppedBy).toBe('per_node_limit');
  });

  it('answers an address without history with an empty, complete result', async () => {
    const result = await search({ anchor: 'nobody' });
    expect(result).toMatchObject({ complete: true, categories: [], totalUsdMicros: 0, totalTransfers: 0, nodesVisited: 0 });
  });
});

describe('exposure search over an index that reads pages in batches', () => {
  // z ← a0..a39 ← b{i}_{0..4} ← c{i}: 40 + 200 + 40 addresses, three levels to read; a few labelled on each level.
  const WIDE = Array.from({ length: 40 }, (_, i) => [
    edge(`a${i}`, 'z', 10 + i),
    ...Array.from({ length: 5 }, (_, j) => edge(`b${i}_${j}`, `a${i}`, 1 + ((i * 7 + j * 3) % 11))),
    edge(`c${i}`, `b${i}_0`, 5),
  ]).flat();
  const WIDE_LABELS = labelsOf({ a3: EXCHANGE, b5_2: STOLEN, b17_4: SANCTIONED, c9: STOLEN, c30: EXCHANGE });

  async function both(budget: Partial<ExposureBudget>, superNodeBound?: number) {
    const index = await fixtureIndex(WIDE, 'ETH', superNodeBound === undefined ? {} : { superNodeBound });
    const calls = { one: 0, many: 0 };
    const run = (batched: boolean) => {
      let tick = 0;
      return searchExposure(
        {
          flows: (...args) => {
            calls.one++;
            return index.flows(...args);
          },
          ...(batched
            ? {
                flowsOfMany: async (addresses, network, direction, limit) => {
                  calls.many++;
                  return addresses.map((address) => index.flows(address, network, direction, limit) as FlowPage);
                },
              }
            : {}),
          classify: WIDE_LABELS,
          now: () => tick++,
        },
        { address: 'z', network: 'ETH', direction: 'in', budget: { ...BUDGET, ...budget } },
      );
    };
    const alone = await run(false);
    const pagesAlone = calls.one;
    const batched = await run(true);
    return { alone, batched, pagesAlone, batchedCalls: calls.many, flowsCallsWhenBatched: calls.one - pagesAlone };
  }

  it('finds the same exposure with far fewer reads, whole or cut by any budget', async () => {
    const whole = await both({});
    expect(whole.alone.complete).toBe(true);
    expect(whole.batched).toEqual(whole.alone);
    expect(whole.flowsCallsWhenBatched).toBe(0);
    // Four levels (z; the a's; the b's; the c's, without senders), labelled addresses not expanded: 270 pages
    // alone; batched, each level in batches of 16, 32, 64, …: 1 + 2 + 4 + 2 reads.
    expect(whole.pagesAlone).toBe(270);
    expect(whole.batchedCalls).toBe(9);
    for (const budget of [{ maxNodes: 60 }, { maxEdges: 90 }, { maxHops: 2 }, { perNodeLimit: 3 }, { timeMs: 150 }]) {
      const cut = await both(budget);
      expect(cut.alone.complete, JSON.stringify(budget)).toBe(false);
      expect(cut.batched, JSON.stringify(budget)).toEqual(cut.alone);
    }
    const superNodes = await both({}, 2);
    expect(superNodes.batched.stops?.remaindersTotal).toBeGreaterThan(0);
    expect(superNodes.batched).toEqual(superNodes.alone);
  });

  it('answers searches under way at the same time as it answers each alone (each has a table of its own)', async () => {
    const index = await fixtureIndex(WIDE, 'ETH');
    const run = (anchor: string, direction: 'in' | 'out') => {
      let tick = 0;
      return searchExposure(
        {
          // Every page a turn of the event loop later: the searches below interleave page by page.
          flows: async (...args) => {
            await new Promise((resolve) => setImmediate(resolve));
            return index.flows(...args);
          },
          classify: WIDE_LABELS,
          now: () => tick++,
        },
        { address: anchor, network: 'ETH', direction, budget: BUDGET },
      );
    };
    const asked = [
      ['z', 'in'],
      ['a7', 'in'],
      ['c9', 'out'],
      ['b5_2', 'out'],
    ] as const;
    const alone = [];
    for (const [anchor, direction] of asked) alone.push(await run(anchor, direction));
    const together = await Promise.all(asked.map(([anchor, direction]) => run(anchor, direction)));
    expect(together).toEqual(alone);
    expect(alone.map((r) => r.nodesVisited > 0)).toEqual([true, true, true, true]);
    expect(alone[0]?.categories.length).toBeGreaterThan(0);
  });
});
