import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.js';
import { loadConfig } from '../config.js';
import { parseArgs } from './args.js';
import { dataDirOf } from './service-file.js';
import { runVerb } from './verbs.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const verb = (...argv: string[]) => runVerb(svc.services, parseArgs(argv));

describe('a flag the verb does not read', () => {
  it('is refused and nothing happens: `deposit … --dry-run` deposits nothing (also inside the service, /admin/cli)', async () => {
    const { userId } = await svc.account({ plan: { kind: 'ledger' }, depositUsd: 3 });
    const before = (await verb('account', 'show', '--user', userId)).output;
    const refused = await verb('deposit', '--user', userId, '--usd', '5', '--dry-run');
    expect(refused.exitCode).toBe(2);
    expect(refused.output).toMatchObject({
      error: { code: 'bad_request', message: expect.stringContaining('unknown option --dry-run for "deposit"') },
    });
    expect((await verb('account', 'show', '--user', userId)).output).toEqual(before);
    expect((await verb('deposit', '--user', userId, '--usd', '5')).exitCode).toBe(0);
  });

  it(
    'is refused by the CLI process before it opens the data directory: exit 2, the message and usage on stderr',
    { timeout: 60_000 },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'svc-cli-flags-'));
      try {
        const failed = await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'infra/cli/main.ts', 'deposit', '--user', 'u1', '--usd', '5', '--dry-run'],
          {
            env: { ...process.env, MODE: 'embedded', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
          },
        ).then(
          () => null,
          (error: unknown) => error as { code: number; stdout: string; stderr: string },
        );
        expect(failed?.code).toBe(2);
        expect(failed?.stderr).toContain("error: unknown option '--dry-run'");
        expect(failed?.stderr).toContain('Usage: cli deposit [options]');
        expect(JSON.parse(failed?.stdout ?? '')).toEqual({ error: { code: 'bad_request', message: "unknown option '--dry-run'" } });
        expect(await readdir(dataDir)).toEqual([]);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );
});

describe('the data directory the CLI looks for a running service in', () => {
  it('is the one the configuration reads', () => {
    for (const env of [{}, { DATA_DIR: '/srv/risk' }, { DATA_DIR: '' }]) expect(dataDirOf(env)).toBe(loadConfig(env).DATA_DIR);
  });
});
