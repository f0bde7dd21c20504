import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function cli(dataDir: string, ...argv: string[]): Promise<{ code: number; json: any }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'infra/cli/main.ts', ...argv], {
      env: { ...process.env, MODE: 'embedded', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SVC_SOURCES_DIR: '' },
    });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, json: JSON.parse(failed.stdout) };
  }
}

describe('operator CLI', () => {
  // Twelve CLI processes, each loading the service's code (about 5 s of CPU): minutes on a loaded 2-core machine.
  it('works on a stopped service: accounts, keys, deposits, ledger show and replay', { timeout: 300_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-cli-'));
    dirs.push(dataDir);
    const created = await cli(
      dataDir,
      'account',
      'create',
      '--email',
      'ops@example.test',
      '--org',
      'Acme',
      '--subgroup',
      'AML',
      '--plan',
      'ledger',
      '--deposit',
      '5',
      '--with-key',
    );
    expect(created.code).toBe(0);
    expect(created.json.api_key).toMatch(/^svc_[0-9A-Za-z]{44}$/);
    expect(created.json.organization_id).toBeTruthy();
    const userId = created.json.user_id;

    expect((await cli(dataDir, 'deposit', '--user', userId, '--usd', '2.5')).json.billing.balance_usd).toBe(7.5);
    const listed = await cli(dataDir, 'key', 'list', '--user', userId);
    expect(listed.json.keys).toHaveLength(1);
    expect(listed.json.keys[0].prefix).toBe(created.json.api_key.slice(4, 8));
    expect(JSON.stringify(listed.json)).not.toContain(created.json.api_key);

    const revoked = await cli(dataDir, 'key', 'revoke', '--user', userId, '--key', created.json.key_id);
    expect(revoked.json).toEqual({ revoked: true });
    const shown = await cli(dataDir, 'ledger', 'show', '--user', userId);
    expect(shown.json.events.map((e: { type: string }) => e.type)).toEqual(['PlanChanged', 'FundsDeposited', 'FundsDeposited']);
    const replay = await cli(dataDir, 'ledger', 'replay');
    expect(replay.code).toBe(0);
    expect(replay.json.mismatches).toBe(0);

    const bad = await cli(dataDir, 'deposit', '--user', userId);
    expect(bad.code).not.toBe(0);
    expect(bad.json.error.code).toBe('bad_request');
    expect((await cli(dataDir, 'frobnicate')).code).toBe(2);
  });

  it('goes through the running service on the same data directory', { timeout: 90_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-cli-live-'));
    dirs.push(dataDir);
    const port = await freePort();
    const service = await spawnTsx(
      'infra/main.ts',
      { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', SVC_SOURCES_DIR: MINIMAL_SANCTIONS_DIR },
      /listening on/,
    );
    try {
      const created = await cli(
        dataDir,
        'account',
        'create',
        '--email',
        'live@example.test',
        '--plan',
        'quota',
        '--quota',
        '2',
        '--with-key',
      );
      expect(created.code).toBe(0);
      const screen = () =>
        fetch(`http://127.0.0.1:${port}/v2/screen`, {
          method: 'POST',
          headers: { authorization: `Bearer ${created.json.api_key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ address: '0x' + '12'.repeat(20), network: 'BSC' }),
        });
      expect((await screen()).status).toBe(200);
      await cli(dataDir, 'key', 'revoke', '--user', created.json.user_id, '--key', created.json.key_id);
      expect((await screen()).status).toBe(401);
      const replay = await cli(dataDir, 'ledger', 'replay', '--account', created.json.user_id);
      expect(replay.code).toBe(0);
      expect(replay.json.accounts[0].replayed.period_units_used).toBe(1);
    } finally {
      await stop(service.child);
    }
  });

  it(
    'has its own channel: a Unix socket (mode 0600), not the public port, whose per-address cap clients may have used up',
    {
      timeout: 90_000,
    },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'svc-cli-socket-'));
      dirs.push(dataDir);
      const port = await freePort();
      const service = await spawnTsx(
        'infra/main.ts',
        {
          DATA_DIR: dataDir,
          PORT: String(port),
          LOG_LEVEL: 'silent',
          SVC_SOURCES_DIR: MINIMAL_SANCTIONS_DIR,
          SVC_HTTP_MAX_CONNECTIONS_PER_CLIENT: '2',
        },
        /listening on/,
      );
      const held: Socket[] = [];
      try {
        expect((await stat(join(dataDir, 'cli.sock'))).mode & 0o777).toBe(0o600);
        // two clients on loopback hold the address's every connection (each answered once, so surely counted),
        // and the first finds no CLI route on the public port: a third connection is refused
        for (const path of ['/admin/cli', '/v2/health']) {
          const socket = connect({ host: '127.0.0.1', port });
          held.push(socket);
          const status = await new Promise<string>((resolve) => {
            socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split(' ')[1]!));
            socket.write(`${path === '/admin/cli' ? 'POST' : 'GET'} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`);
          });
          expect(status, path).toBe(path === '/admin/cli' ? '404' : '200');
        }
        const fresh = await new Promise<number | undefined>((resolve, reject) => {
          const request = get({ host: '127.0.0.1', port, path: '/v2/health', agent: false }, (response) => {
            response.resume();
            resolve(response.statusCode);
          });
          request.on('error', reject);
        });
        expect(fresh).toBe(429);
        const created = await cli(dataDir, 'account', 'create', '--email', 'socket@example.test', '--plan', 'quota', '--quota', '2');
        expect(created.code, JSON.stringify(created.json)).toBe(0);
        expect(created.json.user_id).toBeTruthy();
      } finally {
        for (const socket of held) socket.destroy();
        await stop(service.child);
      }
    },
  );
});
