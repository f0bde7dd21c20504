import { present } from '../../domain/shared/present.js';
import { readBalance } from '../../commands/billing.commands.js';
import { presentBilling } from '../../read-api/presenters/billing.presenter.js';
import type { EmailOwnerLookup } from '../../commands/accounts.commands.js';
import { fail } from '../../domain/shared/errors.js';
import type { AccountDoc } from '../../projections/accounts.projection.js';
import type { Services } from '../bootstrap.js';
import { flag, numberFlag } from './args.js';
import type { VerbTable } from './verb.js';

const MAX_PAGE = 500;

/** Who owns an email, per the accounts read model: the unique-email guard's view of accounts older than it. */
export const emailOwner =
  (services: Pick<Services, 'repositories'>): EmailOwnerLookup =>
  async (email) =>
    (await services.repositories.accounts.byEmail(email))?.userId ?? null;

/** An account as an operator sees it: never the password hash, only whether there is one. */
const summary = (account: AccountDoc) => ({
  user_id: account.userId,
  email: account.email,
  display_name: account.displayName,
  opened_at: account.openedAt,
  memberships: account.memberships.map((m) => ({
    organization_id: m.organizationId,
    organization: m.organizationName,
    subgroup_id: m.subgroupId,
    subgroup: m.subgroupName,
    role: m.role,
  })),
  inspect_providers: account.inspectProviders,
  super_admin: account.superAdmin,
  password_set: account.passwordHash !== null,
});

/** `account list` and `account show`: how an operator finds a user id. */
export const ACCOUNT_VERBS: VerbTable<'commands' | 'repositories'> = {
  async 'account list'(services, args) {
    const limit = numberFlag(args, 'limit') ?? 50;
    const skip = numberFlag(args, 'skip') ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw fail('bad_request', `--limit is 1..${MAX_PAGE}`);
    if (!Number.isInteger(skip)) throw fail('bad_request', '--skip is a whole number');
    const [accounts, total] = await Promise.all([
      services.repositories.accounts.list({ skip, limit }),
      services.repositories.accounts.count(),
    ]);
    return { exitCode: 0, output: { total, skip, limit, accounts: accounts.map(summary) } };
  },
  async 'account show'(services, args) {
    const email = flag(args, 'email');
    const userId = flag(args, 'user');
    if ((email === undefined) === (userId === undefined)) throw fail('bad_request', 'give --email or --user');
    const account =
      email !== undefined
        ? await services.repositories.accounts.byEmail(email.trim())
        : await services.repositories.accounts.get(present(userId, 'the verb requires --user or --email, and this is the --user branch'));
    if (!account)
      throw fail('not_found', email !== undefined ? `no account with the email ${email.trim().toLowerCase()}` : `no account ${userId}`);
    const [keys, balance] = await Promise.all([
      services.repositories.apiKeys.listForUser(account.userId),
      readBalance(services.commands, account.userId),
    ]);
    return {
      exitCode: 0,
      output: {
        ...summary(account),
        keys: keys.map((k) => ({
          key_id: k.keyId,
          prefix: k.prefix,
          created_at: k.createdAt,
          revoked_at: k.revokedAt,
          last_used_at: k.lastUsedAt,
        })),
        billing: presentBilling(balance.billing),
      },
    };
  },
};
