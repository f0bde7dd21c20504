import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grantInspect } from '../../commands/accounts.commands.js';
import type { Plan } from '../../domain/ledger/ledger.events.js';
import type { RecordedProviders } from './recorded-providers.js';
import type { TestService } from './test-service.js';

/**
 * A test service whose inspect providers are the recorded GoPlus (provider_a) and Chainalysis
 * (provider_b) APIs on 127.0.0.1, plus clients that call it as a customer would.
 */
export function recordedProviderEnv(recorded: RecordedProviders): Record<string, string> {
  return {
    SVC_PROVIDER_A_URL: recorded.url,
    SVC_PROVIDER_B_URL: recorded.url,
    SVC_PROVIDER_B_KEY: 'recorded-test-key',
    SVC_INSPECT_PROVIDER_TIMEOUT_MS: '10000',
  };
}

/** A sources directory holding only the named sources of `from` (symlinks: nothing is copied). */
export async function sourcesSubset(from: string, folders: readonly string[]): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-sources-'));
  await Promise.all(folders.map((folder) => symlink(join(from, folder), join(dir, folder), 'dir')));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export async function entitledAccount(
  svc: TestService,
  options: { plan?: Plan; depositUsd?: number; providers?: readonly string[] } = {},
): Promise<{ userId: string; apiKey: string; keyId: string }> {
  const account = await svc.account({ ...(options.plan ? { plan: options.plan } : {}), depositUsd: options.depositUsd ?? 10 });
  await grantInspect(svc.services.commands, account.userId, options.providers ?? ['provider_a', 'provider_b']);
  await svc.services.projections.whenCaughtUp();
  return account;
}

export function inspectClient(svc: TestService, apiKey: string) {
  const headers = { authorization: `Bearer ${apiKey}` };
  return {
    inspect: (body: object, idempotencyKey?: string) =>
      svc.app.inject({
        method: 'POST',
        url: '/v2/inspect-address',
        headers: { ...headers, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        payload: body,
      }),
    result: (checkId: string) => svc.app.inject({ method: 'GET', url: `/v2/inspect/${checkId}/result`, headers }),
    balance: async () => (await svc.app.inject({ method: 'GET', url: '/v2/balance', headers })).json(),
    usage: async () => {
      await svc.services.whenCaughtUp();
      return (await svc.app.inject({ method: 'GET', url: '/v2/me/usage', headers })).json();
    },
  };
}
