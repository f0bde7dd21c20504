import type { ReadStore } from '../domain/ports/read-store.port.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/** Who belongs to which subgroup (one document per membership): the people a case can be assigned to. */
export interface SubgroupMemberDoc extends Record<string, unknown> {
  subgroupId: string;
  userId: string;
  joinedAt: string;
}

export const subgroupMembersProjection = defineProjection<SubgroupMemberDoc>({
  name: 'subgroup-members',
  collection: 'subgroup_members',
  indexes: ['subgroupId'],
  handles: ['OrganizationJoined'],
  idOf: (event) => `${(event.data as { subgroupId: string }).subgroupId}:${event.streamId.slice('account-'.length)}`,
  evolve: (doc, event) => {
    if (doc) return doc;
    const { subgroupId, at } = event.data as { subgroupId: string; at: string };
    return { subgroupId, userId: event.streamId.slice('account-'.length), joinedAt: at };
  },
});

/** A subgroup has a handful of members; this many are listed at most. */
const MAX_MEMBERS = 500;

export interface SubgroupMemberRepository {
  membersOf(subgroupId: string): Promise<readonly SubgroupMemberDoc[]>;
}

export function subgroupMemberRepository(store: ReadStore): SubgroupMemberRepository {
  const members = store.collection<SubgroupMemberDoc>(subgroupMembersProjection.collection, subgroupMembersProjection.indexes);
  return { membersOf: (subgroupId) => members.find({ where: { subgroupId }, limit: MAX_MEMBERS }) };
}
