import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { accountDecider, type AccountCommand } from './account.decider.js';
import type { AccountEvent } from './account.events.js';

const spec = deciderSpec(accountDecider);
const T = '2026-03-10T12:00:00.000Z';

const opened: AccountEvent = { type: 'AccountOpened', data: { userId: 'u1', email: 'a@example.test', displayName: 'Ada', at: T } };
const open: AccountCommand = { type: 'OpenAccount', userId: 'u1', email: 'a@example.test', displayName: 'Ada', at: T };
const join = (subgroupId: string, role: 'member' | 'group_admin' = 'member'): AccountCommand => ({
  type: 'JoinOrganization',
  organizationId: 'org-1',
  organizationName: 'Org',
  subgroupId,
  subgroupName: `Team ${subgroupId}`,
  role,
  at: T,
});
const joined = (subgroupId: string, role: 'member' | 'group_admin' = 'member'): AccountEvent => ({
  type: 'OrganizationJoined',
  data: { organizationId: 'org-1', organizationName: 'Org', subgroupId, subgroupName: `Team ${subgroupId}`, role, at: T },
});
const granted = (providers: string[]): AccountEvent => ({ type: 'EntitlementGranted', data: { entitlement: 'inspect', providers, at: T } });

describe('account decider', () => {
  it('opens an account once; opening again decides nothing', () => {
    const state = spec.given([]).when(open).then([opened]);
    expect(state).toMatchObject({ opened: true, userId: 'u1', email: 'a@example.test' });
    spec
      .given([opened])
      .when({ ...open, email: 'other@example.test' })
      .thenNothingHappened();
  });

  it('refuses every other command on an account that was never opened with not_found', () => {
    const commands: AccountCommand[] = [
      join('sg-1'),
      { type: 'GrantInspect', providers: ['p1'], at: T },
      { type: 'SelectProviders', providers: ['p1'], at: T },
      { type: 'GrantSuperAdmin', at: T },
      { type: 'SetPassword', passwordHash: 'h', at: T },
    ];
    for (const command of commands) spec.given([]).when(command).thenThrows('not_found');
  });

  it('joins a subgroup; the same subgroup and role again decides nothing; another role replaces the membership', () => {
    const state = spec
      .given([opened])
      .when(join('sg-1'))
      .then([joined('sg-1')]);
    expect(state.memberships).toHaveLength(1);
    spec
      .given([opened, joined('sg-1')])
      .when(join('sg-1'))
      .thenNothingHappened();
    const promoted = spec
      .given([opened, joined('sg-1')])
      .when(join('sg-1', 'group_admin'))
      .then([joined('sg-1', 'group_admin')]);
    expect(promoted.memberships).toEqual([
      { organizationId: 'org-1', organizationName: 'Org', subgroupId: 'sg-1', subgroupName: 'Team sg-1', role: 'group_admin' },
    ]);
    const two = spec
      .given([opened, joined('sg-1')])
      .when(join('sg-2'))
      .then([joined('sg-2')]);
    expect(two.memberships.map((m) => m.subgroupId)).toEqual(['sg-1', 'sg-2']);
  });

  it('granting inspect entitles providers and selects them all when nothing was selected yet', () => {
    const state = spec
      .given([opened])
      .when({ type: 'GrantInspect', providers: ['p1', 'p2'], at: T })
      .then([granted(['p1', 'p2'])]);
    expect(state).toMatchObject({ inspectProviders: ['p1', 'p2'], selectedProviders: ['p1', 'p2'] });
    const kept = spec
      .given([opened, granted(['p1', 'p2']), { type: 'ProvidersSelected', data: { providers: ['p2'], at: T } }])
      .when({ type: 'GrantInspect', providers: ['p1', 'p2', 'p3'], at: T })
      .then([granted(['p1', 'p2', 'p3'])]);
    expect(kept.selectedProviders).toEqual(['p2']);
  });

  it('refuses a provider outside the service’s catalog, leaving the entitlement as it was', () => {
    const error = spec
      .given([opened, granted(['provider_a'])])
      .when({ type: 'GrantInspect', providers: ['provider_a', 'provider_zz'], catalog: ['provider_a', 'provider_b'], at: T })
      .thenThrows('bad_request');
    expect(error.message).toContain('"provider_zz"');
    expect(error.message).toContain('provider_a, provider_b');
    spec
      .given([opened])
      .when({ type: 'GrantInspect', providers: ['provider_b', 'provider_b'], catalog: ['provider_a', 'provider_b'], at: T })
      .then([granted(['provider_b'])]);
  });

  it('selecting providers keeps only the entitled ones (none without an entitlement)', () => {
    spec
      .given([opened, granted(['p1', 'p2'])])
      .when({ type: 'SelectProviders', providers: ['p2', 'p9'], at: T })
      .then([{ type: 'ProvidersSelected', data: { providers: ['p2'], at: T } }]);
    spec
      .given([opened])
      .when({ type: 'SelectProviders', providers: ['p1'], at: T })
      .then([{ type: 'ProvidersSelected', data: { providers: [], at: T } }]);
  });

  it('grants super admin once', () => {
    const state = spec
      .given([opened])
      .when({ type: 'GrantSuperAdmin', at: T })
      .then([{ type: 'SuperAdminGranted', data: { at: T } }]);
    expect(state.superAdmin).toBe(true);
    spec
      .given([opened, { type: 'SuperAdminGranted', data: { at: T } }])
      .when({ type: 'GrantSuperAdmin', at: T })
      .thenNothingHappened();
  });

  it('sets (and replaces) the password hash', () => {
    const state = spec
      .given([opened, { type: 'PasswordSet', data: { passwordHash: 'old', at: T } }])
      .when({ type: 'SetPassword', passwordHash: 'new', at: T })
      .then([{ type: 'PasswordSet', data: { passwordHash: 'new', at: T } }]);
    expect(state.passwordHash).toBe('new');
  });

  it('parse skips event types it does not know', () => {
    expect(accountDecider.parse({ type: 'AccountRenamed', data: {} })).toBeNull();
  });
});
