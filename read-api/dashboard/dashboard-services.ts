import type { PasswordHasher } from '../../domain/ports/password-hasher.port.js';
import type { SessionRepository } from '../../projections/sessions.projection.js';
import type { SubgroupRepository } from '../../projections/subgroups.projection.js';
import type { UsageDayRepository } from '../../projections/usage-days.projection.js';

/** Settings of the dashboard's login and sessions (from the environment, see infra/config.ts). */
export interface DashboardSettings {
  readonly sessionTtlMs: number;
  /** `auto`: Secure when the request arrived over HTTPS (directly or as told by X-Forwarded-Proto). */
  readonly cookieSecure: 'auto' | 'always' | 'never';
  /** Failed logins allowed per email address (and four times as many per client address) per window. */
  readonly loginMaxFailures: number;
  readonly loginWindowMs: number;
  /** Password checks (scrypt) of logins running at once, and waiting; beyond both a login gets 429 at once. */
  readonly loginMaxConcurrentChecks: number;
  readonly loginMaxQueuedChecks: number;
}

/** What the dashboard needs beyond the V2 API's services; built by infra/wiring. */
export interface DashboardServices {
  readonly passwords: PasswordHasher;
  readonly sessions: SessionRepository;
  readonly subgroups: SubgroupRepository;
  readonly usageDays: UsageDayRepository;
  readonly settings: DashboardSettings;
}
