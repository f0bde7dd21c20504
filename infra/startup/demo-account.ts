import { openAccount } from '../../commands/accounts.commands.js';
import { issueApiKey } from '../../commands/api-keys.commands.js';
import { hashApiKey } from '../../domain/apikeys/api-key.js';
import { hasCode } from '../../domain/shared/errors.js';
import { usdToMicros } from '../../domain/shared/money.js';
import type { Services } from '../bootstrap.js';
import type { Config } from '../config.js';
import { runs } from '../topology/role.js';

export const DEMO_EMAIL = 'demo@localhost';
/** Providers the demo account may inspect with (the own engine is always included). */
export const DEMO_PROVIDERS = ['provider_a', 'provider_b'];

/**
 * Whether this process looks after the demo account: SVC_DEMO_ACCOUNT=1 (the default of `npm start`; a
 * production deployment sets 0) and a role that serves the API (processors and projections never create it).
 */
export const demoAccountWanted = (config: Pick<Config, 'SVC_DEMO_ACCOUNT' | 'ROLE'>): boolean =>
  config.SVC_DEMO_ACCOUNT === '1' && runs(config.ROLE, 'api');

/**
 * On the first start on an empty data directory: a demo account (USD ledger funded with
 * SVC_DEMO_DEPOSIT_USD, one organization and subgroup, entitled to inspect) and its key, returned once.
 * A well-formed SVC_DEMO_API_KEY is installed as the demo key on every start (a no-op once present).
 */
export async function ensureDemoAccount(services: Services): Promise<{ created: boolean; apiKey: string | null }> {
  const { config, commands, repositories } = services;
  if (!demoAccountWanted(config)) return { created: false, apiKey: null };
  // Checked by loadConfig: a malformed SVC_DEMO_API_KEY stops the start.
  const wanted = config.SVC_DEMO_API_KEY;
  const existing = await repositories.accounts.byEmail(DEMO_EMAIL);
  if (existing) {
    // Installed once: its hash is already known (keys of older data directories, with ids `k-…`, included).
    if (wanted && !(await repositories.apiKeys.byHash(hashApiKey(wanted)))) await issueApiKey(commands, existing.userId, wanted);
    return { created: false, apiKey: null };
  }
  const opened = await openAccount(commands, {
    email: DEMO_EMAIL,
    displayName: 'Demo',
    organization: { name: 'Demo organization', subgroup: 'Compliance', role: 'group_admin' },
    plan: { kind: 'ledger' },
    depositMicros: usdToMicros(config.SVC_DEMO_DEPOSIT_USD),
    inspectProviders: DEMO_PROVIDERS,
  }).catch((error: unknown) => {
    // Another api process opened it first (several starting at once): theirs is the demo account.
    if (hasCode(error, 'email_taken')) return null;
    throw error;
  });
  if (!opened) return { created: false, apiKey: null };
  const { userId } = opened;
  const issued = await issueApiKey(commands, userId, wanted);
  await services.projections.whenCaughtUp();
  return { created: true, apiKey: issued.apiKey };
}
