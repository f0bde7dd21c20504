import { keyProvidersDecider, keyProvidersStream } from '../../domain/inspect/key-providers.decider.js';
import type { Position } from '../../domain/ports/event-store.port.js';
import type { CommandDeps } from '../command-deps.js';

/** Saves (or with null clears) the active inspect providers of one API key; the caller has checked the key's owner. */
export async function saveKeyProviderSelection(
  deps: CommandDeps,
  input: { userId: string; keyId: string; providers: readonly string[] | null },
): Promise<Position | null> {
  const outcome = await deps.executor.execute(
    keyProvidersStream(input.keyId),
    keyProvidersDecider,
    {
      type: 'SelectKeyProviders',
      keyId: input.keyId,
      userId: input.userId,
      providers: input.providers,
      at: deps.clock.now().toISOString(),
    },
    { commandId: deps.ids.newId() },
  );
  return outcome.position;
}
