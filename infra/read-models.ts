import type { Projection } from '../domain/ports/projection.port.js';
import { accountsProjection } from '../projections/accounts.projection.js';
import { subgroupMembersProjection } from '../projections/alert-cases-members.projection.js';
import { alertCasesProjection } from '../projections/alert-cases.projection.js';
import { apiKeyHashesProjection, apiKeysProjection } from '../projections/api-keys.projection.js';
import { balancesProjection } from '../projections/balances.projection.js';
import { checkHistoryProjection } from '../projections/check-history.projection.js';
import { caseOutcomesProjection } from '../projections/case-outcomes.projection.js';
import { policyInputsProjection } from '../projections/policy-inputs.projection.js';
import { keyProviderSelectionsProjection } from '../projections/key-provider-selections.projection.js';
import { monitorsProjection } from '../projections/monitors.projection.js';
import { runningJobsProjection } from '../projections/running-jobs.index.js';
import { sessionsProjection } from '../projections/sessions.projection.js';
import { subgroupsProjection } from '../projections/subgroups.projection.js';
import { usageDaysProjection } from '../projections/usage-days.projection.js';
import { webhookAttemptsProjection, webhookDeliveriesProjection } from '../projections/webhook-deliveries.projection.js';
import { webhookSubscriptionsProjection } from '../projections/webhook-subscriptions.projection.js';
import { x402PaymentsProjection } from '../projections/x402-payments.projection.js';
import { x402RevenueProjection } from '../projections/x402-revenue.projection.js';

/**
 * Every read model the service folds, in one list: the projection runner of an all-in-one or projections
 * process (or its projection thread), the CLI's `projections` verbs and the tests read it. Importing it
 * loads the projections and nothing else (the projection thread starts with it).
 */
export const PROJECTIONS: readonly Projection[] = [
  runningJobsProjection,
  accountsProjection,
  keyProviderSelectionsProjection,
  apiKeysProjection,
  apiKeyHashesProjection,
  balancesProjection,
  sessionsProjection,
  subgroupsProjection,
  usageDaysProjection,
  x402PaymentsProjection,
  x402RevenueProjection,
  webhookSubscriptionsProjection,
  webhookDeliveriesProjection,
  webhookAttemptsProjection,
  monitorsProjection,
  alertCasesProjection,
  subgroupMembersProjection,
  checkHistoryProjection,
  policyInputsProjection,
  caseOutcomesProjection,
];

/**
 * What a processors-only process folds itself: the read models its processors read as of their event
 * (webhook subscriptions for the fan-out, the monitors), and the running jobs for the reaper.
 */
export const PROCESSOR_PROJECTIONS: readonly Projection[] = [webhookSubscriptionsProjection, runningJobsProjection, monitorsProjection];
