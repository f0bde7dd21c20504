import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { auditDemoLedger, demoBalanceAfter, runKillCycles } from '../support/kill-cycles.js';
import { dumpReadModels } from '../support/read-model-dump.js';

/**
 * kill -9 during a load of screens, restart, retry what was not acknowledged with the same
 * Idempotency-Key: nothing acknowledged is lost, nothing is charged twice, the ledger replay agrees, and
 * the read models on disk (whose commits the kills interrupt) equal a fold of the log from scratch.
 */
const ROUNDS = 3;

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('crash recovery of the embedded default', () => {
  it('survives repeated SIGKILL under load: no acknowledged call lost, none charged twice', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-crash-'));
    dirs.push(dataDir);
    const { acknowledged } = await runKillCycles(dataDir, ROUNDS);

    const services = await createServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    await services.start();
    let persisted: Record<string, unknown[]>;
    try {
      // The read models on disk, committed with their checkpoint while the kills landed mid-commit…
      persisted = await dumpReadModels(services);
      const demo = await auditDemoLedger(services);
      expect(demo.mismatches).toBe(0);
      expect(demo.charges).toBe(acknowledged.size);
      expect(demo.balanceMicros).toBe(demoBalanceAfter(acknowledged.size));
    } finally {
      await services.close();
    }
    // …equal a fold of the whole log from scratch (the read models removed, the next start folds it all):
    // no document lost, doubled or ahead of its checkpoint.
    await rm(join(dataDir, 'read-models'), { recursive: true });
    const fresh = await createServices(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    await fresh.start();
    try {
      expect(persisted).toEqual(await dumpReadModels(fresh));
    } finally {
      await fresh.close();
    }
  });
});
