/**
 * A deterministic synthetic transfer graph, for tests and benchmarks only (never served as data about
 * real parties): addresses are `0xfeed…` counters, so no address can be mistaken for a real one.
 *
 * - Power-law degrees: each endpoint of a transfer is, half the time, drawn from a Zipf-like (1/rank)
 *   distribution over a random ranking of the addresses, otherwise uniformly: a few hubs with hundreds
 *   of thousands of counterparties, a long tail with one or two.
 * - Exchanges: the heaviest hubs are labelled `exchange` (stop nodes); mixers: some mid-rank hubs.
 * - Sanctioned clusters: small groups that pay each other and pay out into the general population.
 * - USD amounts log-normal (median ≈ 55 USD), times spread over one year in transfer order.
 * The same options always give the same graph (a seeded generator).
 */

export interface SyntheticOptions {
  readonly addresses: number;
  readonly transfers: number;
  readonly seed?: number;
  readonly exchanges?: number;
  readonly mixers?: number;
  readonly sanctionedClusters?: number;
  readonly clusterSize?: number;
}

export interface SyntheticLabel {
  readonly category: 'exchange' | 'mixer' | 'sanctions';
  readonly name: string;
}

export interface SyntheticGraph {
  readonly addresses: number;
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly usdMicros: Float64Array;
  /** Epoch milliseconds. */
  readonly at: Float64Array;
  readonly labels: ReadonlyMap<number, SyntheticLabel>;
}

export const syntheticAddress = (id: number): string => `0xfeed${id.toString(16).padStart(36, '0')}`;

const YEAR_START = Date.parse('2024-01-01T00:00:00Z');
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** mulberry32: a small, fast, seeded 32-bit generator (good enough for graphs). */
function random(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A chunk of generated transfers: columns of `length` rows. */
export interface SyntheticChunk {
  readonly from: Int32Array;
  readonly to: Int32Array;
  readonly usdMicros: Float64Array;
  readonly at: Float64Array;
}

/**
 * The graph as a stream: the labels at once, the transfers chunk by chunk, so that a hundred million
 * transfers never sit in memory together. Times rise with the transfer index (as blocks do).
 */
export interface SyntheticSource {
  readonly addresses: number;
  readonly transfers: number;
  readonly labels: ReadonlyMap<number, SyntheticLabel>;
  /** The next at most `size` transfers; an empty chunk at the end. */
  next(size: number): SyntheticChunk;
}

export function syntheticSource(options: SyntheticOptions): SyntheticSource {
  const n = options.addresses;
  const m = options.transfers;
  const next = random(options.seed ?? 42);
  // A random ranking: rank r (0 = heaviest hub) is address ranking[r].
  const ranking = new Int32Array(n);
  for (let i = 0; i < n; i++) ranking[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    const t = ranking[i]!;
    ranking[i] = ranking[j]!;
    ranking[j] = t;
  }
  const logN = Math.log(n);
  const endpoint = (): number =>
    next() < 0.5 ? ranking[Math.min(n - 1, Math.floor(Math.exp(next() * logN)) - 1)]! : Math.floor(next() * n);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());

  const labels = new Map<number, SyntheticLabel>();
  const exchanges = options.exchanges ?? Math.max(1, Math.round(n / 10_000));
  for (let r = 0; r < exchanges; r++) labels.set(ranking[r]!, { category: 'exchange', name: `synthetic exchange ${r + 1}` });
  const mixers = options.mixers ?? Math.max(1, Math.round(n / 50_000));
  for (let i = 0; i < mixers; i++) labels.set(ranking[exchanges * 3 + i * 7]!, { category: 'mixer', name: `synthetic mixer ${i + 1}` });
  const clusters = options.sanctionedClusters ?? Math.max(1, Math.round(n / 100_000));
  const clusterSize = options.clusterSize ?? 8;
  const sanctioned: number[] = [];
  for (let c = 0; c < clusters; c++) {
    for (let k = 0; k < clusterSize; k++) {
      const id = Math.floor(next() * n);
      if (labels.has(id)) continue;
      labels.set(id, { category: 'sanctions', name: `synthetic sanctioned cluster ${c + 1}` });
      sanctioned.push(id);
    }
  }

  let made = 0;
  return {
    addresses: n,
    transfers: m,
    labels,
    next(size) {
      const length = Math.max(0, Math.min(size, m - made));
      const chunk = {
        from: new Int32Array(length),
        to: new Int32Array(length),
        usdMicros: new Float64Array(length),
        at: new Float64Array(length),
      };
      for (let k = 0; k < length; k++) {
        // One transfer in a thousand leaves a sanctioned cluster: their funds spread into the population.
        const sender = sanctioned.length > 0 && next() < 0.001 ? sanctioned[Math.floor(next() * sanctioned.length)]! : endpoint();
        let recipient = endpoint();
        if (recipient === sender) recipient = (recipient + 1) % n;
        chunk.from[k] = sender;
        chunk.to[k] = recipient;
        chunk.usdMicros[k] = Math.min(1e13, Math.round(Math.exp(4 + 2 * normal()) * 1e6));
        chunk.at[k] = YEAR_START + Math.floor(((made + k) / m) * YEAR_MS);
      }
      made += length;
      return chunk;
    },
  };
}

export function generateSyntheticGraph(options: SyntheticOptions): SyntheticGraph {
  const source = syntheticSource(options);
  const { from, to, usdMicros, at } = source.next(options.transfers);
  return { addresses: options.addresses, from, to, usdMicros, at, labels: source.labels };
}

/** The graph's transfers as a transfer sample in the Lazarus CSV format (native ETH at `ethUsd`). */
export function toLazarusCsv(graph: SyntheticGraph, ethUsd: number): string {
  const lines = ['block_time,from,to,total_eth'];
  for (let i = 0; i < graph.from.length; i++) {
    const eth = (graph.usdMicros[i]! / 1e6 / ethUsd).toFixed(9);
    lines.push(
      `${new Date(graph.at[i]!).toISOString()},\\x${syntheticAddress(graph.from[i]!).slice(2)},\\x${syntheticAddress(graph.to[i]!).slice(2)},${eth}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const ABUSE: Readonly<Record<SyntheticLabel['category'], Record<string, string>>> = {
  exchange: { category: 'exchange' },
  mixer: { category: 'mixing_service' },
  sanctions: { abuse: 'sanction' },
};

/** The graph's labels as a GraphSense TagPack (JSON form). */
export function toTagpack(graph: Pick<SyntheticGraph, 'labels'>): string {
  const tags = [...graph.labels].map(([id, label]) => ({
    address: syntheticAddress(id),
    currency: 'ETH',
    label: label.name,
    ...ABUSE[label.category],
  }));
  return JSON.stringify({
    title: 'Synthetic graph labels (tests and benchmarks only)',
    creator: 'Synthetic',
    lastmod: '2024-01-01',
    confidence: 'service_data',
    tags,
  });
}
