import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnTsx, stop } from '../support/processes.js';

/**
 * The demo login through the real `npm start` entry point: with SVC_DEMO_PASSWORD unset, the first start
 * prints a password and the demo logs in with it. (That later starts keep it without printing it again is
 * tested in process, in dashboard-login.e2e.test.ts: a second start here would double this suite's time.)
 */
const dataDir = await mkdtemp(join(tmpdir(), 'svc-demo-login-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function start() {
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SVC_SOURCES_DIR: '',
    SVC_SYNC_ON_START: '0',
    SVC_PASSWORD_SCRYPT_LOG_N: '10',
  };
  const service = await spawnTsx('infra/main.ts', env, /listening on/);
  return { ...service, base: `http://127.0.0.1:${port}` };
}

async function logIn(base: string, password: string): Promise<number> {
  const form = await fetch(`${base}/login`);
  const token = /^svc_login_csrf=([^;]+)/.exec(form.headers.getSetCookie()[0] ?? '')?.[1] ?? '';
  const response = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_login_csrf=${token}` },
    body: new URLSearchParams({ email: 'demo@localhost', password, csrf: token }).toString(),
  });
  return response.status;
}

describe('demo login through npm start', () => {
  it('prints the generated demo password on the first start, and the demo logs in with it', async () => {
    const service = await start();
    try {
      const printed = /demo password: (\S+) \(dashboard login as demo@localhost\)/.exec(service.output.join(''));
      expect(printed).not.toBeNull();
      expect(await logIn(service.base, printed![1]!)).toBe(303);
      expect(await logIn(service.base, `${printed![1]!}x`)).toBe(401);
    } finally {
      await stop(service.child);
    }
  }, 60_000);
});
