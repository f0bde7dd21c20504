import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../../infra/bootstrap.js';
import { auditLedgers } from '../../infra/cli/ledger-audit.js';
import { loadConfig } from '../../infra/config.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';
import { dumpReadModels } from '../support/read-model-dump.js';

/**
 * kill -9 during a load of screens, restart, retry what was not acknowledged with the same
 * Idempotency-Key: nothing acknowledged is lost, nothing is charged twice, the ledger replay agrees, and
 * the read models on disk (whose commits the kills interrupt) equal a fold of the log from scratch.
 */
const KEY = `svc_${'K'.repeat(44)}`;
const ROUNDS = 3;
const IN_FLIGHT = 16;

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function startService(dataDir: string, port: number) {
  return spawnTsx(
    'infra/main.ts',
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Warnings and errors only: what a start that never gets ready says goes into the failure's message.
      LOG_LEVEL: 'warn',
      SVC_DEMO_API_KEY: KEY,
      SVC_DEMO_DEPOSIT_USD: '1000',
      SVC_SOURCES_DIR: MINIMAL_SANCTIONS_DIR,
    },
    /listening on/,
  );
}

function screen(port: number, idempotencyKey: string, address: string) {
  return fetch(`http://127.0.0.1:${port}/v2/screen`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ address, network: 'ETH' }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { billing: { charged_usd: number; replay: boolean } } }));
}

describe('crash recovery of the embedded default', () => {
  it('survives repeated SIGKILL under load: no acknowledged call lost, none charged twice', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-crash-'));
    dirs.push(dataDir);
    const acknowledged = new Set<string>();
    const unacknowledged = new Set<string>();
    let sequence = 0;
    const addressOf = (key: string) => '0x' + Number(key.split('-')[1]).toString(16).padStart(40, '0');

    for (let round = 0; round < ROUNDS; round++) {
      const port = await freePort();
      const { child } = await startService(dataDir, port);
      // Retry what the previous crash left unacknowledged, with the same key and body.
      for (const key of [...unacknowledged]) {
        const retried = await screen(port, key, addressOf(key));
        expect(retried.status).toBe(200);
        unacknowledged.delete(key);
        acknowledged.add(key);
      }
      let killed = false;
      const worker = async () => {
        while (!killed) {
          const key = `call-${++sequence}`;
          unacknowledged.add(key);
          try {
            const response = await screen(port, key, addressOf(key));
            if (response.status === 200) {
              unacknowledged.delete(key);
              acknowledged.add(key);
            }
          } catch {
            // the process died with this call in flight: it stays unacknowledged
          }
        }
      };
      const workers = Array.from({ length: IN_FLIGHT }, worker);
      const target = acknowledged.size + 150 + round * 50;
      const deadline = Date.now() + 30_000;
      while (acknowledged.size < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      killed = true;
      await Promise.all(workers);
      await exited;
    }

    // Last restart: retry the stragglers, then audit the data directory offline.
    const port = await freePort();
    const { child } = await startService(dataDir, port);
    for (const key of [...unacknowledged]) {
      expect((await screen(port, key, addressOf(key))).status).toBe(200);
      acknowledged.add(key);
    }
    await stop(child);

    const services = await createServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    await services.start();
    let persisted: Record<string, unknown[]>;
    try {
      // The read models on disk, committed with their checkpoint while the kills landed mid-commit…
      persisted = await dumpReadModels(services);
      const report = await auditLedgers(services);
      expect(report.mismatches).toBe(0);
      const demo = report.accounts.find((a) => a.replayed.charges > 0)!;
      expect(demo.replayed.charges).toBe(acknowledged.size);
      expect(demo.replayed.balance_micros).toBe(1000_000_000 - acknowledged.size * 100_000);
    } finally {
      await services.close();
    }
    // …equal a fold of the whole log from scratch: no document lost, doubled or ahead of its checkpoint.
    const fresh = await createServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', READ_STORE: 'memory' }));
    await fresh.start();
    try {
      expect(persisted).toEqual(await dumpReadModels(fresh));
    } finally {
      await fresh.close();
    }
  });
});
