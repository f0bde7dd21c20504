import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { subgroupMemberRepository, subgroupMembersProjection } from './alert-cases-members.projection.js';

const joined = (userId: string, subgroupId: string, at: string, role: 'member' | 'group_admin' = 'member') =>
  event(`account-${userId}`, 'OrganizationJoined', {
    organizationId: 'o1',
    organizationName: 'Org',
    subgroupId,
    subgroupName: `Team ${subgroupId}`,
    role,
    at,
  });

const spec = projectionSpec(subgroupMembersProjection, subgroupMemberRepository);

describe('the subgroup members read model', () => {
  it('one document per (subgroup, user) membership', async () => {
    await spec
      .given([])
      .when([joined('u1', 's1', '2026-03-01T09:00:00.000Z')])
      .thenDocument('s1:u1', { subgroupId: 's1', userId: 'u1', joinedAt: '2026-03-01T09:00:00.000Z' });
  });

  it('joining again (a role change) keeps the first join date', async () => {
    await spec
      .given([joined('u1', 's1', '2026-03-01T09:00:00.000Z')])
      .when([joined('u1', 's1', '2026-04-01T09:00:00.000Z', 'group_admin')])
      .thenUnchanged();
  });

  it('lists the members of one subgroup only', async () => {
    await spec
      .given([joined('u1', 's1', '2026-03-01T09:00:00.000Z'), joined('u2', 's2', '2026-03-01T09:00:00.000Z')])
      .when([joined('u3', 's1', '2026-03-02T09:00:00.000Z')])
      .then(async (members) => {
        expect((await members.membersOf('s1')).map((m) => m.userId).sort()).toEqual(['u1', 'u3']);
        expect(await members.membersOf('s9')).toEqual([]);
      });
  });
});
