import type { ExposureBody } from '../../domain/exposure/exposure.body.js';
import type { ExploreReport } from '../../domain/explore/explore-report.js';

/**
 * Explore reports are stored as computed when the job completed and served unchanged; those stored before
 * the search reported where it stopped have no `stops`: served as null, so every body has the field.
 */

const withStops = (body: ExposureBody): ExposureBody => (body.stops === undefined ? { ...body, stops: null } : body);

export function exploreReportWithStops(report: ExploreReport): ExploreReport {
  return {
    ...report,
    incoming: report.incoming ? withStops(report.incoming) : null,
    outgoing: report.outgoing ? withStops(report.outgoing) : null,
  };
}
