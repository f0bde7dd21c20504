import { openAccount } from '../../commands/accounts.commands.js';
import { issueApiKey } from '../../commands/api-keys.commands.js';
import { usdToMicros } from '../../domain/shared/money.js';
import type { Services } from '../bootstrap.js';

export const DEMO_EMAIL = 'demo@localhost';
/** Providers the demo account may inspect with (the own engine is always included). */
export const DEMO_PROVIDERS = ['provider_a', 'provider_b'];

/**
 * On the first start on an empty data directory: a demo account (USD ledger funded with
 * SVC_DEMO_DEPOSIT_USD, one organization and subgroup, entitled to inspect) and its key, returned once.
 * A well-formed SVC_DEMO_API_KEY is installed as the demo key on every start (a no-op once present).
 */
export async function ensureDemoAccount(services: Services, log: (line: string) => void): Promise<{ created: boolean; apiKey: string | null }> {
  const { config, commands, repositories } = services;
  // Checked by loadConfig: a malformed SVC_DEMO_API_KEY stops the start.
  const wanted = config.SVC_DEMO_API_KEY;
  const existing = await repositories.accounts.byEmail(DEMO_EMAIL);
  if (existing) {
    if (wanted) await issueApiKey(commands, existing.userId, wanted);
    return { created: false, apiKey: null };
  }
  const { userId } = await openAccount(commands, {
    email: DEMO_EMAIL,
    displayName: 'Demo',
    organization: { name: 'Demo organization', subgroup: 'Compliance', role: 'group_admin' },
    plan: { kind: 'ledger' },
    depositMicros: usdToMicros(config.SVC_DEMO_DEPOSIT_USD),
    inspectProviders: DEMO_PROVIDERS,
  });
  const issued = await issueApiKey(commands, userId, wanted);
  await services.projections.whenCaughtUp();
  return { created: true, apiKey: issued.apiKey };
}
