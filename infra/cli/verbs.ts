import { present } from '../../domain/shared/present.js';
import { requireOpenAccount } from '../../commands/account-guards.js';
import { depositToAccount, grantInspect, openAccount } from '../../commands/accounts.commands.js';
import { presentBilling } from '../../read-api/presenters/billing.presenter.js';
import { issueApiKey, revokeApiKey } from '../../commands/api-keys.commands.js';
import { readBalance, setMonthlyCap, changePlan } from '../../commands/billing.commands.js';
import { DEFAULT_MONTHLY_QUOTA } from '../../domain/billing/products.js';
import type { Plan } from '../../domain/ledger/ledger.events.js';
import { fail } from '../../domain/shared/errors.js';
import { usdToMicros } from '../../domain/shared/money.js';
import type { Services } from '../bootstrap.js';
import { flag, numberFlag, requiredFlag, type ParsedArgs } from './args.js';
import { ACCOUNT_VERBS, emailOwner } from './account-verbs.js';
import { auditLedgers } from './ledger-audit.js';
import { walkLedgerChain } from '../../commands/ledger-chain-walk.js';
import { X402_VERBS } from './x402-verbs.js';
import { INSPECT_VERBS } from './inspect-verbs.js';
import { DATA_VERBS } from './data-verbs.js';
import { SCREEN_VERBS } from './screen-verb.js';
import { DASHBOARD_VERBS } from './dashboard-verbs.js';
import { KYT_VERBS } from './kyt-verbs.js';
import { FULL_CHECK_VERBS } from './full-check-verbs.js';
import { PROJECTION_VERBS } from './projection-verbs.js';
import { MONITOR_VERBS } from './monitor-verbs.js';
import { RECEIPT_VERBS } from './receipt-verbs.js';
import { VERDICT_REPLAY_VERBS } from './verdict-replay-verb.js';
import type { VerbIo } from './progress.js';
import type { VerbResult, VerbTable } from './verb.js';
import { acceptedFlags } from './verb-catalog.js';

export type { VerbResult } from './verb.js';

const ok = (output: unknown): VerbResult => ({ exitCode: 0, output });

function planFrom(args: ParsedArgs): Plan | undefined {
  const kind = flag(args, 'plan');
  if (kind === undefined) return undefined;
  if (kind === 'none') return { kind: 'none' };
  if (kind === 'ledger') return { kind: 'ledger' };
  if (kind === 'quota') return { kind: 'quota', monthlyUnits: numberFlag(args, 'quota') ?? DEFAULT_MONTHLY_QUOTA };
  throw fail('bad_request', '--plan is one of none, quota, ledger');
}

/** Accounts, keys, deposits and the ledger. */
const CORE_VERBS: VerbTable<'commands' | 'config' | 'projections' | 'readStore' | 'repositories' | 'store'> = {
  async 'account create'(services, args) {
    const org = flag(args, 'org');
    const opened = await openAccount(
      services.commands,
      {
        email: requiredFlag(args, 'email'),
        ...(flag(args, 'name') ? { displayName: present(flag(args, 'name'), "flag(args, 'name')").trim().slice(0, 100) } : {}),
        ...(org ? { organization: { name: org, subgroup: flag(args, 'subgroup') ?? 'Default' } } : {}),
        plan: planFrom(args) ?? { kind: 'quota', monthlyUnits: DEFAULT_MONTHLY_QUOTA },
        ...(numberFlag(args, 'deposit') !== undefined
          ? { depositMicros: usdToMicros(present(numberFlag(args, 'deposit'), "numberFlag(args, 'deposit')")) }
          : {}),
        ...(numberFlag(args, 'cap') !== undefined
          ? { monthlyCapMicros: usdToMicros(present(numberFlag(args, 'cap'), "numberFlag(args, 'cap')")) }
          : {}),
        ...(args.flags.inspect ? { inspectProviders: ['provider_a', 'provider_b'] } : {}),
      },
      emailOwner(services),
    );
    const key = args.flags['with-key'] ? await issueApiKey(services.commands, opened.userId) : null;
    await services.projections.whenCaughtUp();
    return ok({
      user_id: opened.userId,
      organization_id: opened.organizationId,
      subgroup_id: opened.subgroupId,
      ...(key ? { api_key: key.apiKey, key_id: key.keyId } : {}),
    });
  },
  async 'account plan'(services, args) {
    const userId = requiredFlag(args, 'user');
    const plan = planFrom(args);
    if (!plan) throw fail('bad_request', '--plan is required');
    await requireOpenAccount(services.commands, userId);
    await changePlan(services.commands, userId, plan);
    if (args.flags.cap !== undefined)
      await setMonthlyCap(
        services.commands,
        userId,
        flag(args, 'cap') === 'none' ? null : usdToMicros(present(numberFlag(args, 'cap'), "numberFlag(args, 'cap')")),
      );
    return ok(presentBilling((await readBalance(services.commands, userId)).billing));
  },
  async 'account entitle'(services, args) {
    const userId = requiredFlag(args, 'user');
    const providers = (flag(args, 'providers') ?? 'provider_a,provider_b').split(',').map((p) => p.trim());
    // The entitlement is replaced, not added to: the answer says what it was.
    const previous = (await requireOpenAccount(services.commands, userId)).inspectProviders;
    await grantInspect(
      services.commands,
      userId,
      providers,
      services.config.INSPECT_PROVIDERS.map((p) => p.name),
    );
    await services.projections.whenCaughtUp();
    return ok({ entitled: true, providers: [...new Set(providers)], previous_providers: previous });
  },
  async 'key issue'(services, args) {
    const userId = requiredFlag(args, 'user');
    if (!(await services.repositories.accounts.get(userId))) throw fail('not_found', `no account ${userId}`);
    const issued = await issueApiKey(services.commands, userId);
    await services.projections.whenProcessed(issued.position);
    return ok({ key_id: issued.keyId, api_key: issued.apiKey, prefix: issued.prefix, created_at: issued.createdAt });
  },
  async 'key revoke'(services, args) {
    const position = await revokeApiKey(services.commands, requiredFlag(args, 'user'), requiredFlag(args, 'key'));
    await services.projections.whenProcessed(position);
    return ok({ revoked: true });
  },
  async 'key list'(services, args) {
    return ok({ keys: await services.repositories.apiKeys.listForUser(requiredFlag(args, 'user')) });
  },
  async deposit(services, args) {
    const usd = numberFlag(args, 'usd');
    if (!usd) throw fail('bad_request', '--usd must be a positive amount');
    const userId = requiredFlag(args, 'user');
    const charged = await depositToAccount(services.commands, {
      userId,
      amountMicros: usdToMicros(usd),
      ...(flag(args, 'id') ? { depositId: present(flag(args, 'id'), "flag(args, 'id')") } : {}),
    });
    // The CLI prints the API's words: the billing object a response carries.
    return ok({ billing: presentBilling(charged) });
  },
  async 'ledger show'(services, args) {
    // the chain of periods from the root; --period YYYY-MM lists the events of that period only
    const userId = requiredFlag(args, 'user');
    const only = flag(args, 'period');
    const periods = [];
    const events = [];
    for await (const period of walkLedgerChain(services.store, userId)) {
      const { opened, closed } = period.state;
      periods.push({
        stream: period.stream,
        events: period.events.length,
        opening: opened?.opening ?? null,
        closing: closed?.closing ?? null,
        breaks: period.breaks,
      });
      if (only && !period.stream.endsWith(`@${only}`)) continue;
      for (const e of period.events)
        events.push({ stream: period.stream, revision: Number(e.revision), type: e.type, data: e.data, at: e.metadata.occurredAt });
    }
    return ok({ user_id: userId, billing: (await readBalance(services.commands, userId)).billing, periods, events });
  },
  async 'ledger replay'(services, args) {
    const report = await auditLedgers(services, flag(args, 'account'));
    return { exitCode: report.mismatches === 0 ? 0 : 1, output: report };
  },
};

/** The operator's verbs. Each returns JSON; the same code runs in the CLI or inside the running service. */
export const VERBS: VerbTable<keyof Services> = {
  ...CORE_VERBS,
  ...ACCOUNT_VERBS,
  ...X402_VERBS,
  ...DATA_VERBS,
  ...SCREEN_VERBS,
  ...DASHBOARD_VERBS,
  ...INSPECT_VERBS,
  ...KYT_VERBS,
  ...FULL_CHECK_VERBS,
  ...PROJECTION_VERBS,
  ...MONITOR_VERBS,
  ...RECEIPT_VERBS,
  ...VERDICT_REPLAY_VERBS,
};

/** `io` defaults to the terminal (each verb's own default); the admin route streams progress instead. */
export async function runVerb(services: Services, args: ParsedArgs, io?: VerbIo): Promise<VerbResult> {
  const name = [args.words.slice(0, 2).join(' '), args.words[0] ?? ''].find((n) => n in VERBS);
  const verb = name === undefined ? undefined : VERBS[name];
  if (name === undefined || verb === undefined) {
    return {
      exitCode: 2,
      output: { error: { code: 'bad_request', message: `unknown command "${args.words.join(' ')}"`, commands: Object.keys(VERBS) } },
    };
  }
  // A flag the verb does not read is refused, not ignored (`deposit … --dry-run` once deposited).
  const unknown = Object.keys(args.flags).filter((given) => !acceptedFlags(name).includes(given));
  if (unknown.length > 0) {
    return {
      exitCode: 2,
      output: {
        error: {
          code: 'bad_request',
          message: `unknown option --${unknown.join(', --')} for "${name}"; accepted: ${
            acceptedFlags(name)
              .map((f) => `--${f}`)
              .join(', ') || 'none'
          }`,
        },
      },
    };
  }
  return verb(services, args, io);
}
