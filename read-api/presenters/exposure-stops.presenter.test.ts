import { describe, expect, it } from 'vitest';
import type { ExposureBody, FullCheckResult } from '../../domain/address-check/full-check-result.schema.js';
import { fullCheckWithStops } from './exposure-stops.presenter.js';

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

describe('a stored full-check result as served', () => {
  it('says stops: null where it was stored before the search reported its stops, and keeps the stops it has', () => {
    const stored = {
      check_id: 'c1',
      exposure: { direct_incoming: body(), direct_outgoing: body(), source_of_funds: body({ stops: STOPS }), destination_of_funds: body() },
    } as unknown as FullCheckResult;
    const served = fullCheckWithStops(stored);
    expect(served.exposure.direct_incoming.stops).toBeNull();
    expect(served.exposure.destination_of_funds.stops).toBeNull();
    expect(served.exposure.source_of_funds.stops).toEqual(STOPS);
    expect(served.check_id).toBe('c1');
  });
});
