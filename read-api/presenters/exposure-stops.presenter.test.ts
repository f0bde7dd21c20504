import { describe, expect, it } from 'vitest';
import type { ExposureBody } from '../../domain/exposure/exposure.body.js';
import type { ExploreReport } from '../../domain/explore/explore-report.js';
import { exploreReportWithStops } from './exposure-stops.presenter.js';

const body = (extra: Partial<ExposureBody> = {}): ExposureBody => ({
  applied: true,
  reason: null,
  complete: true,
  stopped_by: null,
  weighting: 'usd',
  total_usd: 10,
  total_transfers: 1,
  unattributed_pct: 100,
  usd_estimated: false,
  search: { nodes: 1, edges: 1, hops: 1, elapsed_ms: 0.1 },
  categories: [],
  ...extra,
});
const STOPS = { services: [], services_total: 0, remainders: [], remainders_total: 0, heaviest_remainder: null };

describe('a stored explore report as served', () => {
  it('says stops: null where it was stored before the search reported its stops, and keeps the stops it has', () => {
    const stored = { job_id: 'j1', incoming: body(), outgoing: body({ stops: STOPS }) } as unknown as ExploreReport;
    const served = exploreReportWithStops(stored);
    expect(served.incoming?.stops).toBeNull();
    expect(served.outgoing?.stops).toEqual(STOPS);
    expect(served).toMatchObject({ job_id: 'j1' });
  });
});
