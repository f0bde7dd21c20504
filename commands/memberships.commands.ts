import { accountDecider, type Membership } from '../domain/accounts/account.decider.js';
import { accountStream } from '../domain/accounts/account.events.js';
import type { Position } from '../domain/ports/event-store.port.js';
import type { CommandDeps } from './command-deps.js';

/** Adds the user to an existing subgroup (operators: `account join`); joining again with the same role changes nothing. */
export async function joinSubgroup(deps: CommandDeps, userId: string, membership: Membership): Promise<Position | null> {
  const outcome = await deps.executor.execute(
    accountStream(userId),
    accountDecider,
    { type: 'JoinOrganization', ...membership, at: deps.clock.now().toISOString() },
    { commandId: `join:${userId}:${membership.subgroupId}:${membership.role}` },
  );
  return outcome.position;
}

/** Makes the user a platform super-admin (operators: `account superadmin`). */
export async function grantSuperAdmin(deps: CommandDeps, userId: string): Promise<Position | null> {
  const outcome = await deps.executor.execute(
    accountStream(userId),
    accountDecider,
    { type: 'GrantSuperAdmin', at: deps.clock.now().toISOString() },
    { commandId: `super-admin:${userId}` },
  );
  return outcome.position;
}
