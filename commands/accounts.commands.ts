import { accountDecider, type AccountCommand } from '../domain/accounts/account.decider.js';
import { accountStream } from '../domain/accounts/account.events.js';
import { emailClaimDecider } from '../domain/accounts/email-claim.decider.js';
import { emailClaimStream, normalizeEmail } from '../domain/accounts/email-claim.events.js';
import type { ChargedBilling } from '../domain/ledger/charged-billing.js';
import { ledgerDecider } from '../domain/ledger/ledger.decider.js';
import { ledgerStream, type Plan } from '../domain/ledger/ledger.events.js';
import { fail } from '../domain/shared/errors.js';
import type { Micros } from '../domain/shared/money.js';
import { requireOpenAccount } from './account-guards.js';
import { deposit } from './billing.commands.js';
import type { CommandDeps } from './command-deps.js';

export interface OpenAccountInput {
  readonly email: string;
  readonly displayName?: string;
  readonly organization?: { readonly name: string; readonly subgroup: string; readonly role?: 'member' | 'group_admin' };
  readonly plan?: Plan;
  readonly depositMicros?: Micros;
  readonly monthlyCapMicros?: Micros | null;
  readonly inspectProviders?: readonly string[];
  /** Given for a deterministic id (the demo account); otherwise a new one. */
  readonly userId?: string;
}

export interface OpenedAccount {
  readonly userId: string;
  readonly organizationId: string | null;
  readonly subgroupId: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Who the accounts read model says owns an email (accounts opened before email claims have no claim stream). */
export type EmailOwnerLookup = (email: string) => Promise<string | null>;

/**
 * Opens an account with its organization, subgroup, plan and first deposit, one stream at a time. The email
 * is claimed first (one account per email, or email_taken), so a refused open writes nothing else.
 */
export async function openAccount(deps: CommandDeps, input: OpenAccountInput, ownerOfEmail?: EmailOwnerLookup): Promise<OpenedAccount> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email)) throw fail('bad_request', `not an email address: ${input.email}`);
  const userId = input.userId ?? deps.ids.newId();
  const at = deps.clock.now().toISOString();
  const knownOwner = ownerOfEmail ? await ownerOfEmail(email) : null;
  await deps.executor.execute(
    emailClaimStream(email),
    emailClaimDecider,
    { type: 'ClaimEmail', email, userId, knownOwner, at },
    { commandId: `open-account:${userId}:email` },
  );
  const run = (command: AccountCommand, step: string) =>
    deps.executor.execute(accountStream(userId), accountDecider, command, { commandId: `open-account:${userId}:${step}` });

  await run({ type: 'OpenAccount', userId, email, displayName: input.displayName ?? input.email.trim(), at }, 'open');
  let organizationId: string | null = null;
  let subgroupId: string | null = null;
  if (input.organization) {
    organizationId = deps.ids.newId();
    subgroupId = deps.ids.newId();
    await run(
      {
        type: 'JoinOrganization',
        organizationId,
        organizationName: input.organization.name,
        subgroupId,
        subgroupName: input.organization.subgroup,
        role: input.organization.role ?? 'group_admin',
        at,
      },
      'join',
    );
  }
  if (input.inspectProviders) await run({ type: 'GrantInspect', providers: [...input.inspectProviders], at }, 'inspect');

  const ledger = ledgerStream(userId);
  const context = (step: string) => ({ commandId: `open-account:${userId}:${step}` });
  if (input.plan) await deps.executor.execute(ledger, ledgerDecider, { type: 'ChangePlan', plan: input.plan, at }, context('plan'));
  if (input.monthlyCapMicros !== undefined) {
    await deps.executor.execute(ledger, ledgerDecider, { type: 'SetMonthlyCap', capMicros: input.monthlyCapMicros, at }, context('cap'));
  }
  if (input.depositMicros) {
    await deps.executor.execute(
      ledger,
      ledgerDecider,
      { type: 'Deposit', depositId: `initial:${userId}`, amountMicros: input.depositMicros, at },
      context('deposit'),
    );
  }
  return { userId, organizationId, subgroupId };
}

/** Replaces the account's inspect entitlement; with `catalog`, a provider this service does not have is refused. */
export async function grantInspect(
  deps: CommandDeps,
  userId: string,
  providers: readonly string[],
  catalog?: readonly string[],
): Promise<void> {
  const at = deps.clock.now().toISOString();
  await deps.executor.execute(
    accountStream(userId),
    accountDecider,
    { type: 'GrantInspect', providers: [...providers], ...(catalog ? { catalog: [...catalog] } : {}), at },
    { commandId: deps.ids.newId() },
  );
}

/** A deposit an operator makes: only into an account that exists (not_found otherwise, nothing recorded). */
export async function depositToAccount(
  deps: CommandDeps,
  input: { userId: string; depositId?: string; amountMicros: Micros },
): Promise<ChargedBilling> {
  await requireOpenAccount(deps, input.userId);
  return deposit(deps, input);
}
