import type { ReadStore } from '../domain/ports/read-store.port.js';
import { accountStreams } from '../domain/accounts/account.events.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/** Who belongs to which subgroup (one document per membership): the people a case can be assigned to. */
export interface SubgroupMemberDoc extends Record<string, unknown> {
  subgroupId: string;
  userId: string;
  joinedAt: string;
}

export const subgroupMembersProjection = defineProjection({
  name: 'subgroup-members',
  collection: 'subgroup_members',
  indexes: ['subgroupId'],
  handles: ['OrganizationJoined'],
  idOf: (event) => {
    const userId = accountStreams.idOf(event.streamId);
    return userId === null ? null : `${event.data.subgroupId}:${userId}`;
  },
  evolve: (doc: SubgroupMemberDoc | null, event) => {
    if (doc) return doc;
    const userId = accountStreams.idOf(event.streamId);
    return userId === null ? null : { subgroupId: event.data.subgroupId, userId, joinedAt: event.data.at };
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
