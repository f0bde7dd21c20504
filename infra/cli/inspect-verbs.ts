import { saveKeyProviderSelection } from '../../commands/inspect/save-key-provider-selection.js';
import { saveProviderSelection } from '../../commands/inspect/save-provider-selection.js';
import { inspectDecider } from '../../domain/inspect/inspect.decider.js';
import { inspectStream } from '../../domain/inspect/inspect.events.js';
import { fail } from '../../domain/shared/errors.js';
import { flag, requiredFlag } from './args.js';
import type { VerbTable } from './verb.js';

const list = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Operator verbs of the multi-provider inspect (docs/api.md#post-v2inspect-address-multi-provider-inspect). */
export const INSPECT_VERBS: VerbTable<'commands' | 'config' | 'projections' | 'repositories'> = {
  /** The configured providers: alias, adapter, global switch, networks (never a key). */
  async 'providers list'(services) {
    const providers = services.config.INSPECT_PROVIDERS.map(({ name, kind, url, enabled, networks, key }) => ({
      name,
      kind,
      url,
      enabled,
      networks,
      key_set: key !== null,
    }));
    return { exitCode: 0, output: { providers } };
  },
  /** Saves an account's active subset (`--providers ''` saves none: the own engine alone). */
  async 'account providers'(services, args) {
    const userId = requiredFlag(args, 'user');
    if (!(await services.repositories.accounts.get(userId))) throw fail('not_found', `no account ${userId}`);
    const saved = await saveProviderSelection(services.commands, userId, list(flag(args, 'providers') ?? ''));
    await services.projections.whenProcessed(saved.position);
    return { exitCode: 0, output: { user_id: userId, entitled: saved.entitled, selected: saved.selected } };
  },
  /** Saves one key's active subset (it comes before the account's); `--clear` falls back to the account's. */
  async 'key providers'(services, args) {
    const userId = requiredFlag(args, 'user');
    const keyId = requiredFlag(args, 'key');
    const keys = await services.repositories.apiKeys.listForUser(userId);
    if (!keys.some((k) => k.keyId === keyId)) throw fail('not_found', `no key ${keyId} of account ${userId}`);
    const providers = args.flags.clear ? null : list(requiredFlag(args, 'providers'));
    await services.projections.whenProcessed(await saveKeyProviderSelection(services.commands, { userId, keyId, providers }));
    const account = await services.repositories.accounts.get(userId);
    return { exitCode: 0, output: { user_id: userId, key_id: keyId, selected: providers, entitled: account?.inspectProviders ?? [] } };
  },
  /** One inspect as the event log holds it: request, each provider's outcome, the audit (charges nothing). */
  async 'inspect show'(services, args) {
    const checkId = requiredFlag(args, 'check');
    const { state } = await services.commands.executor.load(inspectStream(checkId), inspectDecider);
    if (!state.request) throw fail('not_found', `no inspect ${checkId}`);
    const { status, request, outcomes, audit, failure, finishedAt } = state;
    return { exitCode: 0, output: { check_id: checkId, status, request, outcomes, audit, failure, finished_at: finishedAt } };
  },
};
