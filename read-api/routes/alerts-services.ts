import type { AlertCaseRepository } from '../../projections/alert-cases.projection.js';
import type { SubgroupMemberRepository } from '../../projections/alert-cases-members.projection.js';

/** The read models behind /v2/alerts and the dashboard's alert pages. */
export interface AlertCaseAppServices {
  readonly cases: AlertCaseRepository;
  readonly members: SubgroupMemberRepository;
}
