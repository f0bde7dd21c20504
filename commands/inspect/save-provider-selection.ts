import { accountDecider, type AccountState } from '../../domain/accounts/account.decider.js';
import { accountStream } from '../../domain/accounts/account.events.js';
import type { Position } from '../../domain/ports/event-store.port.js';
import type { CommandDeps } from '../command-deps.js';

/**
 * Saves the active subset of providers an account's inspects use when a request names none. Names
 * outside the entitlement are dropped by the account decider; the kept list is returned.
 */
export async function saveProviderSelection(
  deps: CommandDeps,
  userId: string,
  providers: readonly string[],
): Promise<{ entitled: readonly string[]; selected: readonly string[]; position: Position | null }> {
  const outcome = await deps.executor.execute(
    accountStream(userId),
    accountDecider,
    { type: 'SelectProviders', providers: [...providers], at: deps.clock.now().toISOString() },
    { commandId: deps.ids.newId() },
    (state: AccountState) => ({ entitled: state.inspectProviders ?? [], selected: state.selectedProviders ?? [] }),
  );
  return { ...outcome.view, position: outcome.position };
}
