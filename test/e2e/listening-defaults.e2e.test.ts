import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';

/**
 * The real service as `npm start` runs it: loopback unless HOST says otherwise, a start that says where it
 * listens and what is public, and /metrics never open to other machines without a token.
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string | undefined>) {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-listen-'));
  dirs.push(dataDir);
  const port = await freePort();
  const service = await spawnTsx(
    'infra/main.ts',
    { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', SVC_SOURCES_DIR: MINIMAL_SANCTIONS_DIR, ...env },
    /operator CLI on/,
  );
  return { ...service, port, dataDir, said: () => service.output.join('') };
}

/** Whether a TCP connection to host:port is accepted (loopback addresses only). */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('where the service listens', () => {
  it('HOST unset: 127.0.0.1 only, said at start; the README’s localhost URL reaches it, /metrics too', { timeout: 120_000 }, async () => {
    const svc = await start({ HOST: undefined });
    try {
      expect(svc.said()).toContain(`listening on http://127.0.0.1:${svc.port}, this machine only (HOST=127.0.0.1`);
      expect(svc.said()).toContain(`metrics on http://127.0.0.1:${svc.port}/metrics (this machine only, no token)`);
      expect(svc.said()).toContain(`operator CLI on the unix socket ${join(svc.dataDir, 'cli.sock')}`);
      expect(svc.said()).not.toContain('SVC_DEMO_ACCOUNT=0');
      expect((await fetch(`http://localhost:${svc.port}/v2/health`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${svc.port}/metrics`)).status).toBe(200);
      // another loopback address of this machine: refused, as every other interface is
      expect(await accepts('127.0.0.1', svc.port)).toBe(true);
      expect(await accepts('127.0.0.2', svc.port)).toBe(false);
    } finally {
      await stop(svc.child);
    }
  });

  it(
    'HOST=0.0.0.0 without METRICS_TOKEN: the start says so, warns of the demo account; /metrics is only on its loopback listener',
    {
      timeout: 120_000,
    },
    async () => {
      const metricsPort = await freePort();
      const svc = await start({ HOST: '0.0.0.0', METRICS_PORT: String(metricsPort), METRICS_TOKEN: undefined });
      try {
        expect(svc.said()).toContain(`listening on http://0.0.0.0:${svc.port}, public (HOST=0.0.0.0`);
        expect(svc.said()).toContain(`metrics on http://127.0.0.1:${metricsPort}/metrics (this machine only, no token)`);
        expect(svc.said()).toMatch(/"level":"warn".*the demo account is on while other machines can reach the API/);
        expect((await fetch(`http://127.0.0.1:${svc.port}/v2/health`)).status).toBe(200);
        expect((await fetch(`http://127.0.0.1:${svc.port}/metrics`)).status).toBe(404);
        const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
        expect(scraped.status).toBe(200);
        expect(await scraped.text()).toContain('svc_http_requests_total');
        expect(await accepts('127.0.0.2', metricsPort)).toBe(false);
      } finally {
        await stop(svc.child);
      }
    },
  );
});
