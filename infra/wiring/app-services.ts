import { DEFAULT_REPLAY_TIMEOUT_MS } from '../../commands/replay/replay-plan.js';
import { intelHistory } from '../../projections/intel-as-of.js';
import { accountRepository } from '../../projections/accounts.projection.js';
import { apiKeyRepository } from '../../projections/api-keys.projection.js';
import { balanceRepository } from '../../projections/balances.projection.js';
import { keyProviderSelectionRepository } from '../../projections/key-provider-selections.projection.js';
import { sessionRepository } from '../../projections/sessions.projection.js';
import { subgroupRepository } from '../../projections/subgroups.projection.js';
import { usageDayRepository } from '../../projections/usage-days.projection.js';
import { usageRepository } from '../../projections/usage-rows.js';
import { API_VERSION } from '../../read-api/api-version.js';
import type { AppServices } from '../../read-api/services.js';
import { alertCaseAppServices } from '../alerts/alert-cases-module.js';
import type { Config } from '../config.js';
import { policyAppServices } from '../policies/policy-module.js';
import { providerCatalog } from '../providers/risk-providers.js';
import { scryptPasswordHasher } from '../system/scrypt-password-hasher.js';
import type { Modules, ProcessorSet } from './features.js';

/** The read models of accounts the routes, the CLI and the start-up read. */
export function accountRepositories(readStore: Modules['readStore']) {
  return {
    accounts: accountRepository(readStore),
    apiKeys: apiKeyRepository(readStore),
    usage: usageRepository(readStore),
    balances: balanceRepository(readStore),
  };
}

function dashboardServices(config: Config, readStore: Modules['readStore']): AppServices['dashboard'] {
  return {
    passwords: scryptPasswordHasher({ log2N: config.SVC_PASSWORD_SCRYPT_LOG_N }),
    sessions: sessionRepository(readStore),
    subgroups: subgroupRepository(readStore),
    usageDays: usageDayRepository(readStore),
    settings: {
      sessionTtlMs: config.SVC_SESSION_TTL_MINUTES * 60_000,
      cookieSecure: config.SVC_COOKIE_SECURE,
      loginMaxFailures: config.SVC_LOGIN_MAX_FAILURES,
      loginWindowMs: config.SVC_LOGIN_WINDOW_MINUTES * 60_000,
      loginMaxConcurrentChecks: config.SVC_LOGIN_MAX_CONCURRENT_CHECKS,
      loginMaxQueuedChecks: config.SVC_LOGIN_MAX_QUEUED_CHECKS,
    },
  };
}

/** What the HTTP routes read and call, feature by feature (read-api/services.ts). */
export function createAppServices(
  modules: Modules,
  own: Pick<ProcessorSet, 'webhooks'>,
  repositories: ReturnType<typeof accountRepositories>,
  isReady: () => boolean,
): AppServices {
  const { config, core, readStore } = modules;
  return {
    commands: core.commands,
    apiKeys: repositories.apiKeys,
    accounts: repositories.accounts,
    usage: repositories.usage,
    whenProjected: modules.whenProjected,
    dashboard: dashboardServices(config, readStore),
    inspect: {
      catalog: providerCatalog(config.INSPECT_PROVIDERS),
      completions: core.inspectCompletions,
      keySelections: keyProviderSelectionRepository(readStore),
      waitMs: config.SVC_INSPECT_WAIT_MS,
      wallClockCapMs: config.SVC_INSPECT_WALL_CLOCK_CAP_MS,
    },
    pipeline: modules.fullCheck.api,
    transfers: modules.transferChecks.api,
    info: () => ({ mode: config.MODE, version: API_VERSION, ready: isReady() }),
    sanctionsMaxAgeDays: config.SVC_SANCTIONS_MAX_AGE_DAYS,
    webhooks: own.webhooks.app,
    monitors: modules.monitors.api,
    alerts: alertCaseAppServices(readStore),
    policies: policyAppServices(core.store, readStore, core.commands),
    correlation: core.correlation,
    metrics: core.metrics,
    replay: {
      deps: {
        ...core.commands,
        history: intelHistory(core.store, { requiredSanctions: config.SVC_REQUIRED_SANCTIONS, live: core.intel }),
        log: core.store,
        transfers: modules.transferChecks.deps.transfers,
        monotonicNow: modules.transferChecks.deps.monotonicNow,
      },
      timeoutMs: DEFAULT_REPLAY_TIMEOUT_MS,
    },
  };
}
