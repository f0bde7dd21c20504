import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDecider } from '../../domain/accounts/account.decider.js';
import { accountStream } from '../../domain/accounts/account.events.js';
import { emailClaimStream } from '../../domain/accounts/email-claim.events.js';
import { parseArgs } from '../../infra/cli/args.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { givePassword, logIn } from '../support/dashboard-login.js';
import { startTestService, type TestService } from '../support/test-service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ SVC_PASSWORD_SCRYPT_LOG_N: '10' });
});
afterAll(() => svc.close());

const verb = (...argv: string[]) => runVerb(svc.services, parseArgs(argv));
const output = async (...argv: string[]) => (await verb(...argv)).output as any;
const eventsOf = async (stream: string) => {
  const events = [];
  for await (const event of svc.services.store.read(stream)) events.push(event);
  return events;
};

describe('operator CLI refusals', () => {
  it('refuses a second account with the same email (any case), writing nothing; the first one still logs in', async () => {
    const first = await output('account', 'create', '--email', 'dup@example.test', '--plan', 'ledger');
    await expect(verb('account', 'create', '--email', ' DUP@Example.test', '--plan', 'ledger', '--deposit', '5')).rejects.toMatchObject({
      code: 'email_taken',
      message: expect.stringContaining('dup@example.test'),
    });
    expect(await svc.services.repositories.accounts.count()).toBe(
      (await svc.services.repositories.accounts.list({ skip: 0, limit: 500 })).length,
    );
    const shown = await output('account', 'show', '--email', 'Dup@example.test');
    expect(shown.user_id).toBe(first.user_id);
    await givePassword(svc.services, first.user_id, 'the first owner’s password');
    await logIn(svc.app, 'dup@example.test', 'the first owner’s password');
  });

  it('an account opened before email claims existed (no claim stream) keeps its email', async () => {
    // As an older data directory holds it: opened without a claim, known only to the accounts read model.
    const userId = 'legacy-user';
    const opened = await svc.services.commands.executor.execute(
      accountStream(userId),
      accountDecider,
      { type: 'OpenAccount', userId, email: 'legacy@example.test', displayName: 'Legacy', at: new Date().toISOString() },
      { commandId: 'legacy-open' },
    );
    expect(await eventsOf(emailClaimStream('legacy@example.test'))).toEqual([]);
    await svc.services.projections.whenProcessed(opened.position);
    await expect(verb('account', 'create', '--email', 'legacy@example.test')).rejects.toMatchObject({ code: 'email_taken' });
    expect((await output('account', 'show', '--email', 'legacy@example.test')).user_id).toBe(userId);
  });

  it('refuses a deposit (and a plan change) for a user id that has no account, recording nothing', async () => {
    await expect(verb('deposit', '--user', 'no-such-user', '--usd', '5')).rejects.toMatchObject({ code: 'not_found' });
    await expect(verb('account', 'plan', '--user', 'no-such-user', '--plan', 'ledger')).rejects.toMatchObject({ code: 'not_found' });
    expect(await eventsOf('ledger-no-such-user')).toEqual([]);
  });

  it('refuses an entitlement naming a provider this service does not have, keeping the old one', async () => {
    const { user_id: userId } = await output('account', 'create', '--email', 'entitle@example.test', '--inspect');
    const error = await verb('account', 'entitle', '--user', userId, '--providers', 'provider_zz').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad_request', message: expect.stringContaining('provider_zz') });
    expect((await output('account', 'show', '--user', userId)).inspect_providers).toEqual(['provider_a', 'provider_b']);
    const replaced = await output('account', 'entitle', '--user', userId, '--providers', 'provider_b');
    expect(replaced).toEqual({ entitled: true, providers: ['provider_b'], previous_providers: ['provider_a', 'provider_b'] });
    await expect(verb('account', 'entitle', '--user', 'no-such-user', '--providers', 'provider_a')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('`account list` pages through accounts oldest first; `account show` finds one by email or id, never showing the password hash', async () => {
    const created = await output('account', 'create', '--email', 'findme@example.test', '--org', 'Acme', '--subgroup', 'AML', '--with-key');
    const all = await output('account', 'list', '--limit', '500');
    expect(all.total).toBe(all.accounts.length);
    expect(all.accounts.map((a: { email: string }) => a.email)).toContain('findme@example.test');
    const page = await output('account', 'list', '--limit', '1', '--skip', '1');
    expect(page.accounts).toEqual([all.accounts[1]]);
    const shown = await output('account', 'show', '--email', 'FindMe@example.test');
    expect(shown).toMatchObject({
      user_id: created.user_id,
      email: 'findme@example.test',
      memberships: [{ organization: 'Acme', subgroup: 'AML', subgroup_id: created.subgroup_id, role: 'group_admin' }],
      keys: [{ key_id: created.key_id, prefix: created.api_key.slice(4, 8), revoked_at: null }],
      password_set: false,
    });
    expect(JSON.stringify(all)).not.toContain('scrypt');
    await expect(verb('account', 'show', '--email', 'nobody@example.test')).rejects.toMatchObject({ code: 'not_found' });
    await expect(verb('account', 'show')).rejects.toMatchObject({ code: 'bad_request' });
    await expect(verb('account', 'list', '--limit', '0')).rejects.toMatchObject({ code: 'bad_request' });
  });
});

describe('operator CLI process', () => {
  const run = promisify(execFile);
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-cli-refusals-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  async function cli(...argv: string[]): Promise<{ code: number; json: any }> {
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'infra/cli/main.ts', ...argv], {
        env: { ...process.env, MODE: 'embedded', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SVC_SOURCES_DIR: '', SVC_SYNC_ON_START: '0' },
      });
      return { code: 0, json: JSON.parse(stdout) };
    } catch (error) {
      const failed = error as { code: number; stdout: string };
      return { code: failed.code, json: JSON.parse(failed.stdout) };
    }
  }

  it('exits non-zero with the error’s code on a refusal', { timeout: 60_000 }, async () => {
    const deposit = await cli('deposit', '--user', 'nobody', '--usd', '1');
    expect(deposit.code).not.toBe(0);
    expect(deposit.json.error).toMatchObject({ code: 'not_found', message: 'no account nobody' });
  });
});
