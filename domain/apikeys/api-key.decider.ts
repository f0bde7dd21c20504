import { present } from '../shared/present.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { apiKeyEventSchemas, type ApiKeyEvent } from './api-key.events.js';

export type ApiKeyCommand =
  | { type: 'IssueApiKey'; keyId: string; userId: string; hash: string; prefix: string; at: string }
  | { type: 'RevokeApiKey'; userId: string; at: string };

export interface ApiKeyState {
  keyId: string | null;
  userId: string | null;
  hash: string | null;
  revoked: boolean;
}

export const initialApiKeyState = (): ApiKeyState => ({ keyId: null, userId: null, hash: null, revoked: false });

export function decideApiKey(command: ApiKeyCommand, state: ApiKeyState): ApiKeyEvent[] {
  switch (command.type) {
    case 'IssueApiKey': {
      if (state.keyId !== null) throw fail('invalid_state', `key ${command.keyId} already issued`);
      const { type: _t, ...data } = command;
      return [{ type: 'ApiKeyIssued', data }];
    }
    case 'RevokeApiKey':
      // Someone else's key is indistinguishable from no key: no leak of which ids exist.
      if (state.keyId === null || state.userId !== command.userId) throw fail('not_found', 'no such key');
      if (state.revoked) return [];
      return [
        {
          type: 'ApiKeyRevoked',
          data: {
            keyId: state.keyId,
            userId: state.userId,
            hash: present(state.hash, 'an issued key (checked above) has its hash'),
            at: command.at,
          },
        },
      ];
  }
}

export function evolveApiKey(state: ApiKeyState, event: ApiKeyEvent): ApiKeyState {
  switch (event.type) {
    case 'ApiKeyIssued':
      return { keyId: event.data.keyId, userId: event.data.userId, hash: event.data.hash, revoked: false };
    case 'ApiKeyRevoked':
      return { ...state, revoked: true };
  }
}

export const apiKeyDecider: Decider<ApiKeyCommand, ApiKeyEvent, ApiKeyState> = {
  decide: decideApiKey,
  evolve: evolveApiKey,
  initialState: initialApiKeyState,
  parse: parserFor<ApiKeyEvent>(apiKeyEventSchemas),
};
