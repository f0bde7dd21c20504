import type { ReadStore } from '../domain/ports/read-store.port.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/** Every subgroup and the organization it belongs to, from the memberships users join. */
export interface SubgroupDoc extends Record<string, unknown> {
  subgroupId: string;
  subgroupName: string;
  organizationId: string;
  organizationName: string;
}

export const subgroupsProjection = defineProjection({
  name: 'subgroups',
  collection: 'subgroups',
  indexes: ['organizationId'],
  handles: ['OrganizationJoined'],
  idOf: (event) => event.data.subgroupId,
  evolve: (_doc: SubgroupDoc | null, event) => {
    const { organizationId, organizationName, subgroupId, subgroupName } = event.data;
    return { subgroupId, subgroupName, organizationId, organizationName };
  },
});

export interface SubgroupRepository {
  get(subgroupId: string): Promise<SubgroupDoc | null>;
  inOrganization(organizationId: string): Promise<readonly SubgroupDoc[]>;
  all(): Promise<readonly SubgroupDoc[]>;
}

export function subgroupRepository(store: ReadStore): SubgroupRepository {
  const subgroups = store.collection<SubgroupDoc>(subgroupsProjection.collection, subgroupsProjection.indexes);
  const byName = { orderBy: { field: 'subgroupName', direction: 'asc' as const } };
  return {
    get: async (subgroupId) => (await subgroups.get(subgroupId))?.doc ?? null,
    inOrganization: (organizationId) => subgroups.find({ where: { organizationId }, ...byName }),
    all: () => subgroups.find(byName),
  };
}
