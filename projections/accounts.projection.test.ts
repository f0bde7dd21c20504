import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { accountRepository, accountsProjection } from './accounts.projection.js';

const at = '2026-03-01T09:00:00.000Z';
const opened = (userId: string, email: string, when = at) =>
  event(`account-${userId}`, 'AccountOpened', { userId, email, displayName: `User ${userId}`, at: when });
const joined = (subgroupId: string, role: 'member' | 'group_admin') =>
  event('account-u1', 'OrganizationJoined', {
    organizationId: 'o1',
    organizationName: 'Org',
    subgroupId,
    subgroupName: `Team ${subgroupId}`,
    role,
    at,
  });

const spec = projectionSpec(accountsProjection, accountRepository);

describe('the accounts read model', () => {
  it('an opened account has no memberships, providers, password or super admin right yet', async () => {
    await spec
      .given([])
      .when([opened('u1', 'ann@example.com')])
      .thenDocument('u1', {
        userId: 'u1',
        email: 'ann@example.com',
        displayName: 'User u1',
        memberships: [],
        inspectProviders: null,
        selectedProviders: null,
        superAdmin: false,
        passwordHash: null,
        openedAt: at,
      });
  });

  it('joining the same subgroup again replaces the membership (a role change), another subgroup adds one', async () => {
    await spec
      .given([opened('u1', 'ann@example.com'), joined('s1', 'member')])
      .when([joined('s1', 'group_admin'), joined('s2', 'member')])
      .then(async (accounts) => {
        const memberships = (await accounts.get('u1'))?.memberships;
        expect(memberships?.map((m) => [m.subgroupId, m.role])).toEqual([
          ['s1', 'group_admin'],
          ['s2', 'member'],
        ]);
      });
  });

  it('an entitlement sets the providers and the first selection; a later selection keeps the entitlement', async () => {
    await spec
      .given([opened('u1', 'ann@example.com')])
      .when([
        event('account-u1', 'EntitlementGranted', { entitlement: 'inspect', providers: ['a', 'b'], at }),
        event('account-u1', 'ProvidersSelected', { providers: ['b'], at }),
        event('account-u1', 'EntitlementGranted', { entitlement: 'inspect', providers: ['a', 'b', 'c'], at }),
      ])
      .then(async (accounts) => {
        expect(await accounts.get('u1')).toMatchObject({ inspectProviders: ['a', 'b', 'c'], selectedProviders: ['b'] });
      });
  });

  it('a password and the super admin right are recorded', async () => {
    await spec
      .given([opened('u1', 'ann@example.com')])
      .when([event('account-u1', 'PasswordSet', { passwordHash: 'scrypt$x', at }), event('account-u1', 'SuperAdminGranted', { at })])
      .then(async (accounts) => expect(await accounts.get('u1')).toMatchObject({ passwordHash: 'scrypt$x', superAdmin: true }));
  });

  it('events of an account never opened create nothing', async () => {
    await spec
      .given([])
      .when([joined('s1', 'member'), event('account-u1', 'SuperAdminGranted', { at })])
      .thenDocument('u1', null);
  });

  it('finds by email (stored lower case) and lists oldest first', async () => {
    await spec
      .given([opened('u2', 'bob@example.com', '2026-03-02T00:00:00.000Z')])
      .when([opened('u1', 'ann@example.com', '2026-03-01T00:00:00.000Z')])
      .then(async (accounts) => {
        expect((await accounts.byEmail('ANN@example.com'))?.userId).toBe('u1');
        expect(await accounts.byEmail('nobody@example.com')).toBeNull();
        expect((await accounts.list({ skip: 0, limit: 10 })).map((a) => a.userId)).toEqual(['u1', 'u2']);
        expect((await accounts.list({ skip: 1, limit: 10 })).map((a) => a.userId)).toEqual(['u2']);
        expect(await accounts.count()).toBe(2);
      });
  });
});
