import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Doc } from '../../domain/ports/read-store.port.js';
import { parseArgs } from '../../infra/cli/args.js';
import type { ProgressLine } from '../../infra/cli/progress.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { accountsProjection, type AccountDoc } from '../../projections/accounts.projection.js';
import { freePort, spawnTsx, stop } from '../support/processes.js';
import { startTestService } from '../support/test-service.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('projections rebuild', () => {
  it(
    'rebuilds a damaged read model while accounts keep opening; the result equals a fresh fold of $all',
    { timeout: 120_000 },
    async () => {
      const svc = await startTestService({ SVC_SOURCES_DIR: '' });
      try {
        for (let i = 0; i < 20; i++) await svc.account();
        const accounts = svc.services.readStore.collection<Doc>(accountsProjection.collection, accountsProjection.indexes);
        const victimId = ((await accounts.find({ limit: 1 }))[0] as AccountDoc).userId;
        // Damage the position guard cannot undo: a bogus document at a far-future position.
        await accounts.apply(victimId, { commit: 10n ** 15n, prepare: 10n ** 15n }, () => ({ damaged: true }));

        const lines: ProgressLine[] = [];
        const io = {
          progress: () => ({
            update: (phase: string, done: number, total: number, detail: string) =>
              void lines.push({ progress: { phase, done, total, detail } }),
            stop() {},
          }),
        };
        const [result] = await Promise.all([
          runVerb(svc.services, parseArgs(['projections', 'rebuild', 'accounts']), io),
          Promise.all(Array.from({ length: 10 }, () => svc.account())),
        ]);
        await svc.services.whenCaughtUp();

        expect(result.exitCode).toBe(0);
        expect(result.output).toMatchObject({ projection: 'accounts', collection: accountsProjection.collection, failed: 0 });
        expect(lines.map((l) => l.progress.phase)).toContain('fold accounts (% of the log)');
        expect(lines.at(-1)!.progress).toMatchObject({ phase: 'catch-up accounts (% of the log)', done: 100, total: 100 });

        // The reference: $all folded from scratch through the projection alone.
        const expected = new Map<string, Doc | null>();
        for await (const event of svc.services.store.readAll()) {
          if (!accountsProjection.handles.includes(event.type)) continue;
          const id = accountsProjection.idOf(event);
          if (id !== null) expected.set(id, accountsProjection.evolve((expected.get(id) ?? null) as never, event));
        }
        expect([...expected.values()].filter(Boolean)).toHaveLength(30);
        for (const [id, doc] of expected) expect((await accounts.get(id))?.doc ?? null).toEqual(doc);
        expect(await accounts.count({})).toBe([...expected.values()].filter(Boolean).length);

        await expect(runVerb(svc.services, parseArgs(['projections', 'rebuild', 'nope']))).rejects.toMatchObject({ code: 'not_found' });
      } finally {
        await svc.close();
      }
    },
  );

  it('through the running service: the CLI draws the streamed progress and the service keeps answering', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-rebuild-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env = { ...process.env, MODE: 'embedded', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SVC_SOURCES_DIR: '' };
    const service = await spawnTsx(
      'infra/main.ts',
      { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', SVC_SOURCES_DIR: MINIMAL_SANCTIONS_DIR },
      /listening on/,
    );
    const cli = (...argv: string[]) => run(process.execPath, ['--import', 'tsx', 'infra/cli/main.ts', ...argv], { env });
    try {
      const created = JSON.parse(
        (await cli('account', 'create', '--email', 'rebuild@example.test', '--plan', 'quota', '--quota', '5', '--with-key')).stdout,
      );
      const listed = JSON.parse((await cli('projections', 'list')).stdout);
      expect(listed.projections.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(['accounts', 'api-keys', 'api-key-hashes', 'balances']),
      );
      expect(listed.projections.find((p: { name: string }) => p.name === 'api-key-hashes').documents).toBeGreaterThanOrEqual(1);

      const rebuilt = await cli('projections', 'rebuild', 'api-key-hashes');
      const report = JSON.parse(rebuilt.stdout);
      expect(report).toMatchObject({ projection: 'api-key-hashes', failed: 0 });
      expect(report.documents).toBe(listed.projections.find((p: { name: string }) => p.name === 'api-key-hashes').documents);
      // stderr is not a terminal here: one line per phase instead of a redrawn bar.
      expect(rebuilt.stderr).toContain('fold api-key-hashes (% of the log)…');
      expect(rebuilt.stderr).toContain('catch-up api-key-hashes (% of the log)…');

      const screened = await fetch(`http://127.0.0.1:${port}/v2/screen`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ address: '0x' + '34'.repeat(20), network: 'ETH' }),
      });
      expect(screened.status).toBe(200);

      const unknown = await cli('projections', 'rebuild', 'nope').catch((error: { code: number; stdout: string }) => error);
      expect((unknown as { code: number }).code).toBe(1);
      expect(JSON.parse((unknown as { stdout: string }).stdout).error.code).toBe('not_found');
    } finally {
      await stop(service.child);
    }
  });
});
