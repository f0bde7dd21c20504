import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { subgroupRepository, subgroupsProjection } from './subgroups.projection.js';

const joined = (userId: string, organizationId: string, subgroupId: string, subgroupName: string) =>
  event(`account-${userId}`, 'OrganizationJoined', {
    organizationId,
    organizationName: `Org ${organizationId}`,
    subgroupId,
    subgroupName,
    role: 'member',
    at: '2026-03-01T09:00:00.000Z',
  });

const spec = projectionSpec(subgroupsProjection, subgroupRepository);

describe('the subgroups read model', () => {
  it('a membership names its subgroup and organization', async () => {
    await spec
      .given([])
      .when([joined('u1', 'o1', 's1', 'Compliance')])
      .thenDocument('s1', { subgroupId: 's1', subgroupName: 'Compliance', organizationId: 'o1', organizationName: 'Org o1' });
  });

  it('a second member of the same subgroup changes nothing', async () => {
    await spec
      .given([joined('u1', 'o1', 's1', 'Compliance')])
      .when([joined('u2', 'o1', 's1', 'Compliance')])
      .thenUnchanged();
  });

  it('lists an organization’s subgroups by name, and all of them', async () => {
    await spec
      .given([joined('u1', 'o1', 's2', 'Risk'), joined('u2', 'o2', 's3', 'Audit')])
      .when([joined('u3', 'o1', 's1', 'Compliance')])
      .then(async (subgroups) => {
        expect((await subgroups.inOrganization('o1')).map((s) => s.subgroupName)).toEqual(['Compliance', 'Risk']);
        expect((await subgroups.all()).map((s) => s.subgroupId)).toEqual(['s3', 's1', 's2']);
        expect(await subgroups.get('s9')).toBeNull();
      });
  });
});
