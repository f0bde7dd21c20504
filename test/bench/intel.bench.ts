import { datasetDecider } from '../../domain/intel/dataset.decider.js';
import type { Claim, SourceDescriptor } from '../../domain/intel/intel.types.js';
import { buildScreenVerdict } from '../../domain/intel/screen-verdict.js';
import type { Network } from '../../domain/shared/network.js';
import { createIntelIndex } from '../../projections/intel-index.js';
import { updateReadme } from '../support/readme-figures.js';
import { checkedIntel } from '../../domain/intel/address-verdict.js';

/**
 * `npm run bench:intel`: the intelligence index at scale, on SYNTHETIC data (no real address): 1,000,000
 * claims over 500,000 addresses from 5 sources. Load = what a restart does for each stored dataset
 * event: JSON.parse of its payload and the index's fold (with validation). Then in-process light
 * screens (index lookup + consensus + verdict) on listed and unknown addresses, and the heap per address.
 * With --write-readme, writes the figures into docs/benchmarks.md between <!-- bench:intel:start --> and <!-- bench:intel:end -->.
 */

const ADDRESSES = 500_000;
const CLAIMS = 1_000_000;
const SOURCES = 5;
const SCREENS = 200_000;

const gc = (globalThis as { gc?: () => void }).gc;
const heap = (): number => {
  gc?.();
  return process.memoryUsage().heapUsed;
};

const CATEGORIES = ['phishing', 'scam', 'stolen_funds', 'exchange', 'mixer', 'gambling', 'defi', 'named_entity'];
const IDENTITIES = new Set(['exchange', 'mixer', 'gambling', 'defi', 'named_entity']);

/** Deterministic synthetic addresses: 0x + 40 hex digits for four in five, a TRON-shaped string for the rest. */
function syntheticAddress(i: number): { address: string; network: Network } {
  if (i % 5 === 4) return { address: `T${i.toString(36).padStart(12, 'z')}SyntheticBenchAddr${'x'.repeat(3)}`, network: 'TRON' };
  const mixed = (Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0');
  return { address: `0x${mixed}${i.toString(16).padStart(32, '0')}`, network: 'ETH' };
}

function syntheticClaim(n: number, source: string): Claim {
  const { address, network } = syntheticAddress(n % ADDRESSES);
  const category = CATEGORIES[(n * 7) % CATEGORIES.length]!;
  const base = {
    address,
    scope: network === 'TRON' ? ('TRON' as const) : ('evm' as const),
    category,
    confidence: 40 + (n % 61),
    sourceUrl: `https://example.org/${source}/list.json`,
    firstSeenAt: '2025-01-01T00:00:00Z',
    lastSeenAt: '2025-06-01T00:00:00Z',
    source,
  };
  if (n % 97 === 0) {
    return {
      ...base,
      kind: 'sanction',
      category: 'sanctions',
      label: `SYNTHETIC ENTITY ${n % 1000}`,
      sanction: {
        list: 'US',
        entity: `SYNTHETIC ENTITY ${n % 1000}`,
        program: 'CYBER2',
        listEntryId: String(n),
        listDate: '2024-01-01',
        asset: 'ETH',
      },
    };
  }
  return IDENTITIES.has(category)
    ? { ...base, kind: 'identity', label: `Synthetic ${category} ${n % 5000}` }
    : { ...base, kind: 'risk', label: null };
}

const percentile = (sorted: Float64Array, p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function main(): Promise<void> {
  const index = createIntelIndex();
  const before = heap();
  let loadMs = 0;
  for (let s = 0; s < SOURCES; s++) {
    const source = `synthetic_${s}`;
    const descriptor: SourceDescriptor = {
      slug: source,
      class: 'community_feed',
      trustWeight: 50 + s * 10,
      publicName: source,
      url: `https://example.org/${source}`,
    };
    const claims = Array.from({ length: CLAIMS / SOURCES }, (_, i) => syntheticClaim(i * SOURCES + s, source));
    const events = datasetDecider.decide(
      {
        type: 'ImportDataset',
        source,
        version: '2025-06-01',
        contentHash: `sha256:synthetic-${s}`,
        claims,
        tokens: [],
        importedAt: '2026-01-01T00:00:00Z',
        descriptor,
      },
      datasetDecider.initialState(),
    );
    const stored = events.map((event) => ({ type: event.type, payload: JSON.stringify(event.data) }));
    const started = performance.now();
    for (const { type, payload } of stored) index.apply({ type, data: JSON.parse(payload) });
    loadMs += performance.now() - started;
  }
  const bytesPerAddress = (heap() - before) / ADDRESSES;

  const clock = { now: () => new Date() };
  const durations = new Float64Array(SCREENS);
  let sanctioned = 0;
  for (let i = 0; i < SCREENS; i++) {
    const known = i % 4 !== 3;
    const { address, network } = known
      ? syntheticAddress((i * 7919) % ADDRESSES)
      : { address: `0x${'f'.repeat(32)}${i.toString(16).padStart(8, '0')}`, network: 'BSC' as const };
    const started = performance.now();
    const verdict = buildScreenVerdict(checkedIntel({ intel: index, clock }, { address, network }));
    durations[i] = performance.now() - started;
    if (verdict.verdict.addressLevel === 'sanctioned') sanctioned++;
  }
  durations.sort();
  const figures = {
    date: new Date().toISOString().slice(0, 10),
    loadSeconds: (loadMs / 1000).toFixed(1),
    claimsPerSecond: Math.round(CLAIMS / (loadMs / 1000)),
    bytesPerAddress: Math.round(bytesPerAddress),
    p50: percentile(durations, 0.5).toFixed(3),
    p99: percentile(durations, 0.99).toFixed(3),
    max: durations[durations.length - 1]!.toFixed(2),
  };
  const table = [
    `Measured by \`npm run bench:intel\` (${figures.date}, Node ${process.version}, this 2-core machine; synthetic data: ${CLAIMS.toLocaleString('en')} claims over ${ADDRESSES.toLocaleString('en')} addresses from ${SOURCES} sources):`,
    '',
    '| figure | value | target |',
    '|---|---|---|',
    `| load (JSON.parse of the stored events + validation + index fold) | ${figures.loadSeconds} s (${figures.claimsPerSecond.toLocaleString('en')} claims/s) | < 30 s |`,
    `| in-process light screen (lookup + consensus + verdict), p50 | ${figures.p50} ms | |`,
    `| in-process light screen, p99 (${SCREENS.toLocaleString('en')} screens, 3/4 listed addresses) | ${figures.p99} ms | < 1 ms |`,
    `| heap per address (claims, index, strings) | ${figures.bytesPerAddress} bytes${gc ? '' : ' (without --expose-gc: rough)'} | |`,
  ].join('\n');
  console.log(table);
  console.log(`(${sanctioned} sanctioned verdicts; slowest screen ${figures.max} ms)`);
  await updateReadme('bench:intel', table);
}

await main();
