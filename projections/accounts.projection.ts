import type { Membership } from '../domain/accounts/account.decider.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { accountStreams } from '../domain/accounts/account.events.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/** Who a user is and what they may use, for request authorization and the dashboard. */
export interface AccountDoc extends Record<string, unknown> {
  userId: string;
  email: string;
  displayName: string;
  memberships: Membership[];
  inspectProviders: string[] | null;
  selectedProviders: string[] | null;
  superAdmin: boolean;
  passwordHash: string | null;
  openedAt: string;
}

export const accountsProjection = defineProjection({
  name: 'accounts',
  collection: 'accounts',
  indexes: ['email', 'openedAt'],
  handles: ['AccountOpened', 'OrganizationJoined', 'EntitlementGranted', 'ProvidersSelected', 'SuperAdminGranted', 'PasswordSet'],
  idOf: (event) => accountStreams.idOf(event.streamId),
  evolve: (doc: AccountDoc | null, event): AccountDoc | null => {
    if (event.type === 'AccountOpened') {
      return {
        userId: event.data.userId,
        email: event.data.email,
        displayName: event.data.displayName,
        memberships: [],
        inspectProviders: null,
        selectedProviders: null,
        superAdmin: false,
        passwordHash: null,
        openedAt: event.data.at,
      };
    }
    if (!doc) return null;
    switch (event.type) {
      case 'OrganizationJoined': {
        const { at: _at, ...membership } = event.data;
        return { ...doc, memberships: [...doc.memberships.filter((m) => m.subgroupId !== membership.subgroupId), membership] };
      }
      case 'EntitlementGranted':
        return { ...doc, inspectProviders: event.data.providers, selectedProviders: doc.selectedProviders ?? event.data.providers };
      case 'ProvidersSelected':
        return { ...doc, selectedProviders: event.data.providers };
      case 'SuperAdminGranted':
        return { ...doc, superAdmin: true };
      case 'PasswordSet':
        return { ...doc, passwordHash: event.data.passwordHash };
    }
  },
});

export interface AccountRepository {
  get(userId: string): Promise<AccountDoc | null>;
  byEmail(email: string): Promise<AccountDoc | null>;
  /** Oldest first, a page at a time (operators finding a user id). */
  list(page: { skip: number; limit: number }): Promise<readonly AccountDoc[]>;
  count(): Promise<number>;
}

export function accountRepository(store: ReadStore): AccountRepository {
  const accounts = store.collection<AccountDoc>(accountsProjection.collection, accountsProjection.indexes);
  return {
    get: async (userId) => (await accounts.get(userId))?.doc ?? null,
    byEmail: async (email) => (await accounts.find({ where: { email: email.toLowerCase() }, limit: 1 }))[0] ?? null,
    list: (page) => accounts.find({ orderBy: { field: 'openedAt', direction: 'asc' }, skip: page.skip, limit: page.limit }),
    count: () => accounts.count({}),
  };
}
