import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../commands/api-keys.commands.js';
import { apiKeyDecider } from '../../domain/apikeys/api-key.decider.js';
import { apiKeyStream } from '../../domain/apikeys/api-key.events.js';
import { apiKeyPrefix, hashApiKey } from '../../domain/apikeys/api-key.js';
import { DEMO_EMAIL, ensureDemoAccount } from '../../infra/startup/demo-account.js';
import { startTestService, type TestService } from '../support/test-service.js';

// A weak key an operator might choose for a demo: guessable, so nothing shown may be derived from it.
const WEAK_KEY = `svc_${'0'.repeat(43)}1`;
const ADDRESS = '0x' + '12'.repeat(20);

const services: TestService[] = [];
afterEach(async () => {
  for (const svc of services.splice(0).reverse()) await svc.close();
});

async function start(env: Record<string, string> = {}, dataDir?: string) {
  const svc = await startTestService(env, dataDir);
  services.push(svc);
  return svc;
}

const screen = (svc: TestService, key: string) =>
  svc.app.inject({
    method: 'POST',
    url: '/v2/screen',
    headers: { authorization: `Bearer ${key}` },
    payload: { address: ADDRESS, network: 'BSC' },
  });

describe('API key ids', () => {
  it('a chosen key gets a random id, nothing derived from the key or its hash', async () => {
    const svc = await start();
    const { userId } = await svc.account();
    const issued = await issueApiKey(svc.services.commands, userId, WEAK_KEY);
    const hash = hashApiKey(WEAK_KEY);
    expect(issued.keyId).not.toContain(hash.slice(0, 8));
    expect(issued.keyId).toMatch(/^[0-9a-f-]{36}$/);
    expect(issued.keyId).not.toBe((await issueApiKey(svc.services.commands, userId)).keyId);
  });

  it('SVC_DEMO_API_KEY is installed once, across restarts on the same data directory', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-key-ids-'));
    const first = await start({ SVC_DEMO_API_KEY: WEAK_KEY, SVC_DEMO_DEPOSIT_USD: '1' }, dataDir);
    await ensureDemoAccount(first.services);
    await ensureDemoAccount(first.services);
    const demo = (await first.services.repositories.accounts.byEmail(DEMO_EMAIL))!;
    const keys = await first.services.repositories.apiKeys.listForUser(demo.userId);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.keyId).not.toContain(hashApiKey(WEAK_KEY).slice(0, 8));
    expect((await screen(first, WEAK_KEY)).statusCode).toBe(200);
    await first.close();
    services.splice(services.indexOf(first), 1);

    const again = await start({ SVC_DEMO_API_KEY: WEAK_KEY }, dataDir);
    await ensureDemoAccount(again.services);
    expect(await again.services.repositories.apiKeys.listForUser(demo.userId)).toHaveLength(1);
    expect((await screen(again, WEAK_KEY)).statusCode).toBe(200);
    await again.close();
    services.splice(services.indexOf(again), 1);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a key issued by older versions (id `k-` + half its hash, in its ApiKeyIssued event) still authenticates and is not installed twice', async () => {
    const svc = await start({ SVC_DEMO_DEPOSIT_USD: '1' });
    await ensureDemoAccount(svc.services);
    const demo = (await svc.services.repositories.accounts.byEmail(DEMO_EMAIL))!;
    // The old shape, as an old data directory holds a SVC_DEMO_API_KEY it installed.
    const oldKey = `svc_${'7'.repeat(44)}`;
    const hash = hashApiKey(oldKey);
    const legacyId = `k-${hash.slice(0, 32)}`;
    const outcome = await svc.services.commands.executor.execute(
      apiKeyStream(legacyId),
      apiKeyDecider,
      { type: 'IssueApiKey', keyId: legacyId, userId: demo.userId, hash, prefix: apiKeyPrefix(oldKey), at: new Date().toISOString() },
      { commandId: `issue-key:${legacyId}` },
    );
    await svc.services.projections.whenProcessed(outcome.position);
    expect((await screen(svc, oldKey)).statusCode).toBe(200);
    const usage = await svc.app.inject({ method: 'GET', url: '/v2/me/usage', headers: { authorization: `Bearer ${oldKey}` } });
    expect(usage.statusCode).toBe(200);
    const before = await svc.services.repositories.apiKeys.listForUser(demo.userId);
    expect(before.map((k) => k.keyId)).toContain(legacyId);
    // The next start with the same SVC_DEMO_API_KEY finds it by its hash: no second key.
    await ensureDemoAccount({ ...svc.services, config: { ...svc.services.config, SVC_DEMO_API_KEY: oldKey } });
    await svc.services.projections.whenCaughtUp();
    expect(await svc.services.repositories.apiKeys.listForUser(demo.userId)).toHaveLength(before.length);
  });
});
