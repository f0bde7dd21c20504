import type { ReadStore } from '../../domain/ports/read-store.port.js';
import { alertCaseRepository } from '../../projections/alert-cases.projection.js';
import { subgroupMemberRepository } from '../../projections/alert-cases-members.projection.js';
import { checkHistoryRepository } from '../../projections/check-history.projection.js';
import type { AlertCaseAppServices } from '../../read-api/routes/alerts-services.js';

/** What /v2/alerts and the dashboard's workbench read. */
export function alertCaseAppServices(readStore: ReadStore): AlertCaseAppServices {
  return {
    cases: alertCaseRepository(readStore),
    members: subgroupMemberRepository(readStore),
    history: checkHistoryRepository(readStore),
  };
}
