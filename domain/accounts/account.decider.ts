import { present } from '../shared/present.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { accountEventSchemas, type AccountEvent, type Role } from './account.events.js';

export type AccountCommand =
  | { type: 'OpenAccount'; userId: string; email: string; displayName: string; at: string }
  | {
      type: 'JoinOrganization';
      organizationId: string;
      organizationName: string;
      subgroupId: string;
      subgroupName: string;
      role: Role;
      at: string;
    }
  /** `catalog`: the providers this service has; when given, a name outside it is refused (a typo must not replace the entitlement). */
  | { type: 'GrantInspect'; providers: string[]; catalog?: readonly string[]; at: string }
  | { type: 'SelectProviders'; providers: string[]; at: string }
  | { type: 'GrantSuperAdmin'; at: string }
  | { type: 'SetPassword'; passwordHash: string; at: string };

export interface Membership {
  organizationId: string;
  organizationName: string;
  subgroupId: string;
  subgroupName: string;
  role: Role;
}

export interface AccountState {
  opened: boolean;
  userId: string | null;
  email: string | null;
  memberships: Membership[];
  inspectProviders: string[] | null;
  selectedProviders: string[] | null;
  superAdmin: boolean;
  passwordHash: string | null;
}

export const initialAccountState = (): AccountState => ({
  opened: false,
  userId: null,
  email: null,
  memberships: [],
  inspectProviders: null,
  selectedProviders: null,
  superAdmin: false,
  passwordHash: null,
});

function requireOpen(state: AccountState): void {
  if (!state.opened) throw fail('not_found', 'no such account');
}

export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  switch (command.type) {
    case 'OpenAccount':
      if (state.opened) return [];
      return [
        { type: 'AccountOpened', data: { userId: command.userId, email: command.email, displayName: command.displayName, at: command.at } },
      ];
    case 'JoinOrganization': {
      requireOpen(state);
      const { type: _t, ...data } = command;
      if (state.memberships.some((m) => m.subgroupId === command.subgroupId && m.role === command.role)) return [];
      return [{ type: 'OrganizationJoined', data }];
    }
    case 'GrantInspect': {
      requireOpen(state);
      const unknown = command.catalog
        ? command.providers.filter((p) => !present(command.catalog, 'checked non-null in the condition before').includes(p))
        : [];
      if (unknown.length > 0) {
        throw fail(
          'bad_request',
          `unknown inspect provider ${unknown.map((p) => JSON.stringify(p)).join(', ')}; this service has ${present(command.catalog, 'checked non-null in the condition before').join(', ')}`,
        );
      }
      const providers = [...new Set(command.providers)];
      return [{ type: 'EntitlementGranted', data: { entitlement: 'inspect', providers, at: command.at } }];
    }
    case 'SelectProviders': {
      requireOpen(state);
      const entitled = state.inspectProviders ?? [];
      return [{ type: 'ProvidersSelected', data: { providers: command.providers.filter((p) => entitled.includes(p)), at: command.at } }];
    }
    case 'GrantSuperAdmin':
      requireOpen(state);
      return state.superAdmin ? [] : [{ type: 'SuperAdminGranted', data: { at: command.at } }];
    case 'SetPassword':
      requireOpen(state);
      return [{ type: 'PasswordSet', data: { passwordHash: command.passwordHash, at: command.at } }];
  }
}

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'AccountOpened':
      return { ...state, opened: true, userId: event.data.userId, email: event.data.email };
    case 'OrganizationJoined': {
      const { at: _at, ...membership } = event.data;
      return { ...state, memberships: [...state.memberships.filter((m) => m.subgroupId !== membership.subgroupId), membership] };
    }
    case 'EntitlementGranted':
      return { ...state, inspectProviders: event.data.providers, selectedProviders: state.selectedProviders ?? event.data.providers };
    case 'ProvidersSelected':
      return { ...state, selectedProviders: event.data.providers };
    case 'SuperAdminGranted':
      return { ...state, superAdmin: true };
    case 'PasswordSet':
      return { ...state, passwordHash: event.data.passwordHash };
  }
}

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  decide: decideAccount,
  evolve: evolveAccount,
  initialState: initialAccountState,
  parse: parserFor<AccountEvent>(accountEventSchemas),
};
