import { joinSubgroup, grantSuperAdmin } from '../../commands/memberships.commands.js';
import { setPassword } from '../../commands/passwords.commands.js';
import { fail } from '../../domain/shared/errors.js';
import type { Services } from '../bootstrap.js';
import { flag, requiredFlag } from './args.js';
import type { VerbTable } from './verb.js';

async function existingAccount(services: Pick<Services, 'repositories'>, userId: string) {
  const account = await services.repositories.accounts.get(userId);
  if (!account) throw fail('not_found', `no account ${userId}`);
  return account;
}

/** Operator verbs for dashboard access: passwords, subgroup memberships, super-admins. */
export const DASHBOARD_VERBS: VerbTable<'app' | 'commands' | 'repositories'> = {
  async 'account password'(services, args) {
    const account = await existingAccount(services, requiredFlag(args, 'user'));
    await services.app.whenProjected(
      await setPassword(services.commands, services.app.dashboard.passwords, account.userId, requiredFlag(args, 'password')),
    );
    return { exitCode: 0, output: { user_id: account.userId, email: account.email, password_set: true } };
  },
  async 'account join'(services, args) {
    const account = await existingAccount(services, requiredFlag(args, 'user'));
    const subgroup = await services.app.dashboard.subgroups.get(requiredFlag(args, 'subgroup'));
    if (!subgroup) throw fail('not_found', `no subgroup ${flag(args, 'subgroup')}`);
    const role = flag(args, 'role') ?? 'member';
    if (role !== 'member' && role !== 'group_admin') throw fail('bad_request', '--role is member or group_admin');
    await services.app.whenProjected(await joinSubgroup(services.commands, account.userId, { ...subgroup, role }));
    return {
      exitCode: 0,
      output: { user_id: account.userId, subgroup_id: subgroup.subgroupId, organization_id: subgroup.organizationId, role },
    };
  },
  async 'account superadmin'(services, args) {
    const account = await existingAccount(services, requiredFlag(args, 'user'));
    await services.app.whenProjected(await grantSuperAdmin(services.commands, account.userId));
    return { exitCode: 0, output: { user_id: account.userId, super_admin: true } };
  },
};
