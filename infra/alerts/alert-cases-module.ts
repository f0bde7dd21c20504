import type { ReadStore } from '../../domain/ports/read-store.port.js';
import { alertCaseRepository, alertCasesProjection } from '../../projections/alert-cases.projection.js';
import { subgroupMemberRepository, subgroupMembersProjection } from '../../projections/alert-cases-members.projection.js';
import { checkHistoryProjection, checkHistoryRepository } from '../../projections/check-history.projection.js';
import type { AlertCaseAppServices } from '../../read-api/routes/alerts-services.js';

/** The workbench's read models (alert cases, subgroup members, check history), registered with the others in bootstrap's PROJECTIONS. */
export const ALERT_CASE_PROJECTIONS = [alertCasesProjection, subgroupMembersProjection, checkHistoryProjection];

/** What /v2/alerts and the dashboard's workbench read. */
export function alertCaseAppServices(readStore: ReadStore): AlertCaseAppServices {
  return {
    cases: alertCaseRepository(readStore),
    members: subgroupMemberRepository(readStore),
    history: checkHistoryRepository(readStore),
  };
}
