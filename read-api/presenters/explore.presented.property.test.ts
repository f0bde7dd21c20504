import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exploreReportOfV1 } from '../../domain/explore/explore-completed.upcast.js';
import { EXPLORE_REPORT_VERSION, exploreReportSchema, type ExploreReport } from '../../domain/explore/explore-report.js';
import type { ExposureFound } from '../../domain/exposure/exposure-found.js';
import type { ExposurePath, SearchStops } from '../../domain/exposure/exposure.schema.js';
import { RISK_LEVELS } from '../../domain/shared/verdict-vocabulary.js';
import { exploreReportBodySchema } from '../schemas/explore.js';
import { presentExploreReport } from './explore.presenter.js';

/**
 * Presenting an explore report loses nothing it states: any domain report, presented and parsed back with
 * the wire schema, reads back (as the registry's upcaster reads a stored body) into the same report, its
 * shares to the body's precision (percent with two decimals), and presents the very same body again.
 */

const micros = fc.integer({ min: 0, max: 1_000_000_000_000_000 });
const share = fc.double({ min: 0, max: 1, noNaN: true });
const slug = fc.constantFrom('sanctions', 'mixer', 'stolen_funds', 'exchange', 'scam');
const address = fc.stringMatching(/^0x[0-9a-f]{6}$/);
const level = fc.constantFrom(...RISK_LEVELS);
const count = fc.integer({ min: 0, max: 10_000 });

const path: fc.Arbitrary<ExposurePath> = fc.record({
  hops: fc.integer({ min: 1, max: 8 }),
  addresses: fc.array(address, { minLength: 2, maxLength: 5 }),
  usdMicros: micros,
  share,
  label: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
  source: fc.constantFrom('graphsense', 'ofac', 'community'),
  usdEstimated: fc.boolean(),
});

const stops: fc.Arbitrary<SearchStops> = fc.record({
  services: fc.array(
    fc.record({
      address,
      category: slug,
      label: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
      hops: fc.integer({ min: 1, max: 8 }),
      share,
      usdMicros: micros,
    }),
    { maxLength: 3 },
  ),
  servicesTotal: count,
  remainders: fc.array(
    fc.record({
      address,
      hops: fc.integer({ min: 0, max: 8 }),
      counterparties: count,
      share,
      usdMicros: micros,
      remainderUsdMicros: micros,
      superNode: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  remaindersTotal: count,
});

const found: fc.Arbitrary<ExposureFound> = fc.record({
  complete: fc.boolean(),
  stoppedBy: fc.option(fc.constantFrom('max_nodes', 'max_hops', 'time'), { nil: null }),
  weighting: fc.constantFrom('usd' as const, 'transfer_count' as const),
  totalUsdMicros: micros,
  totalTransfers: count,
  unattributedShare: share,
  usdEstimated: fc.boolean(),
  nodesVisited: count,
  edgesScanned: count,
  hopsReached: fc.integer({ min: 0, max: 20 }),
  elapsedMs: fc.integer({ min: 0, max: 10_000_000 }).map((us) => us / 1000),
  categories: fc.array(
    fc.record({
      slug,
      severity: fc.integer({ min: 0, max: 10 }),
      addressLevel: level,
      usdMicros: micros,
      share,
      weightedShare: share,
      minHops: fc.integer({ min: 1, max: 8 }),
      entities: count,
      paths: fc.array(path, { maxLength: 3 }),
    }),
    { maxLength: 4 },
  ),
  stops: fc.option(stops, { nil: null }),
});

const report: fc.Arbitrary<ExploreReport> = fc
  .record({
    jobId: fc.uuid(),
    reportId: fc.uuid(),
    address,
    network: fc.constantFrom('ETH', 'BSC', 'TRON'),
    direction: fc.constantFrom('in' as const, 'out' as const, 'both' as const),
    complete: fc.boolean(),
    categories: fc.array(
      fc.record({
        slug,
        severity: fc.integer({ min: 0, max: 10 }),
        addressLevel: level,
        usdMicros: micros,
        minHops: fc.integer({ min: 1, max: 8 }),
      }),
      { maxLength: 4 },
    ),
    incoming: found,
    outgoing: found,
    requestedAt: fc.constant('2026-11-29T09:00:00.000Z'),
    completedAt: fc.constant('2026-11-29T09:00:01.000Z'),
  })
  .map(({ address: subject, network, ...r }) => ({
    ...r,
    version: EXPLORE_REPORT_VERSION,
    subject: { address: subject, network },
    // a direction not searched has no search
    incoming: r.direction === 'out' ? null : r.incoming,
    outgoing: r.direction === 'in' ? null : r.outgoing,
  }));

const SHARES = new Set(['share', 'weightedShare', 'unattributedShare']);
/** A report with every share to the body's precision (percent with two decimals: 1e-4 of the whole). */
const toBodyPrecision = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, v: unknown) => (SHARES.has(key) && typeof v === 'number' ? Math.round(v * 10_000) / 10_000 : v));

describe('an explore report presented and parsed back', () => {
  it('loses nothing the report states, and presents the same body again', () => {
    fc.assert(
      fc.property(report, (original) => {
        const presented = JSON.stringify(presentExploreReport(exploreReportSchema.parse(original)));
        const body = exploreReportBodySchema.parse(JSON.parse(presented));
        const readBack = exploreReportSchema.parse(exploreReportOfV1(body));
        expect(toBodyPrecision(readBack)).toEqual(toBodyPrecision(original));
        expect(JSON.stringify(presentExploreReport(readBack))).toBe(presented);
      }),
      { numRuns: 300 },
    );
  });
});
