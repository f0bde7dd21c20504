import { z } from 'zod';
import { parserFor, type Decider } from '../shared/decider.js';
import { streamFamily } from '../shared/streams.js';

/**
 * Stream `keyproviders-{keyId}`: the active subset of inspect providers saved for one API key, used when a
 * request names none. `null` clears it (the account's saved subset, else its whole entitlement, applies).
 * Names are kept as given: they are cut to the entitlement when an inspect runs, so a later entitlement
 * change needs no rewrite here.
 */
export const keyProvidersStreams = streamFamily('keyproviders');
export const KEY_PROVIDERS_STREAM_PREFIX = keyProvidersStreams.prefix;
export const keyProvidersStream = keyProvidersStreams.stream;

export const keyProvidersEventSchemas = {
  KeyProvidersSelected: z.object({ keyId: z.string(), userId: z.string(), providers: z.array(z.string()).nullable(), at: z.string() }),
} as const;

export type KeyProvidersEvent = { type: 'KeyProvidersSelected'; data: z.infer<typeof keyProvidersEventSchemas.KeyProvidersSelected> };

export interface SelectKeyProviders {
  readonly type: 'SelectKeyProviders';
  readonly keyId: string;
  readonly userId: string;
  readonly providers: readonly string[] | null;
  readonly at: string;
}

export interface KeyProvidersState {
  providers: readonly string[] | null;
}

const same = (a: readonly string[] | null, b: readonly string[] | null) => JSON.stringify(a) === JSON.stringify(b);

export const keyProvidersDecider: Decider<SelectKeyProviders, KeyProvidersEvent, KeyProvidersState> = {
  decide(command, state) {
    const providers = command.providers === null ? null : [...new Set(command.providers)];
    if (same(providers, state.providers)) return [];
    return [{ type: 'KeyProvidersSelected', data: { keyId: command.keyId, userId: command.userId, providers, at: command.at } }];
  },
  evolve: (_state, event) => ({ providers: event.data.providers }),
  initialState: () => ({ providers: null }),
  parse: parserFor<KeyProvidersEvent>(keyProvidersEventSchemas),
};
