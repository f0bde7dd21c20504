import { accountDecider } from '../domain/accounts/account.decider.js';
import { accountStream } from '../domain/accounts/account.events.js';
import { fail } from '../domain/shared/errors.js';
import { webhookActor, type WebhookActor, type WebhookSurface } from '../domain/webhooks/webhook-access.js';
import type { CommandDeps } from './command-deps.js';

/**
 * The actor behind a webhook request, read from the account stream itself (a membership granted a
 * moment ago counts). The API-key routes call it with 'api_key', the dashboard with 'dashboard'.
 */
export async function loadWebhookActor(deps: CommandDeps, userId: string, surface: WebhookSurface): Promise<WebhookActor> {
  const { state } = await deps.executor.load(accountStream(userId), accountDecider);
  if (!state.opened) throw fail('not_found', 'no such account');
  return webhookActor({ userId, memberships: state.memberships, superAdmin: state.superAdmin }, surface);
}

/** The subgroups a user belongs to: the audience of an event raised for that user. */
export async function subgroupsOfUser(deps: CommandDeps, userId: string): Promise<string[]> {
  const { state } = await deps.executor.load(accountStream(userId), accountDecider);
  return state.memberships.map((m) => m.subgroupId);
}
