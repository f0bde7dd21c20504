import type { AlertCaseRepository } from '../../projections/alert-cases.projection.js';
import type { SubgroupMemberRepository } from '../../projections/alert-cases-members.projection.js';
import type { CheckHistoryRepository } from '../../projections/check-history.projection.js';

/** The read models behind /v2/alerts and the dashboard's workbench pages. */
export interface AlertCaseAppServices {
  readonly cases: AlertCaseRepository;
  readonly members: SubgroupMemberRepository;
  /** The account's checks, for the workbench's History. */
  readonly history: CheckHistoryRepository;
}
