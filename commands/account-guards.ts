import { accountDecider, type AccountState } from '../domain/accounts/account.decider.js';
import { accountStream } from '../domain/accounts/account.events.js';
import { fail } from '../domain/shared/errors.js';
import type { CommandDeps } from './command-deps.js';

/**
 * The account as its own stream says now (not a read model): refuses with not_found when it was never
 * opened, so money or settings are never recorded for a user id that does not exist.
 */
export async function requireOpenAccount(deps: CommandDeps, userId: string): Promise<AccountState> {
  const { state } = await deps.executor.load(accountStream(userId), accountDecider);
  if (!state.opened) throw fail('not_found', `no account ${userId}`);
  return state;
}
