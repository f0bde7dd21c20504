import type { ExposureBody, FullCheckResult } from '../../domain/address-check/full-check-result.schema.js';
import type { ExploreReport } from '../../domain/explore/explore-report.js';

/**
 * Results are stored as computed when the check or job completed and served unchanged; those stored before
 * the search reported where it stopped have no `stops`: served as null, so every body has the field.
 */

const withStops = (body: ExposureBody): ExposureBody => (body.stops === undefined ? { ...body, stops: null } : body);

export function fullCheckWithStops(result: FullCheckResult): FullCheckResult {
  const { exposure } = result;
  return {
    ...result,
    exposure: {
      direct_incoming: withStops(exposure.direct_incoming),
      direct_outgoing: withStops(exposure.direct_outgoing),
      source_of_funds: withStops(exposure.source_of_funds),
      destination_of_funds: withStops(exposure.destination_of_funds),
    },
  };
}

export function exploreReportWithStops(report: ExploreReport): ExploreReport {
  return {
    ...report,
    incoming: report.incoming ? withStops(report.incoming) : null,
    outgoing: report.outgoing ? withStops(report.outgoing) : null,
  };
}
