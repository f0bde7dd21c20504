import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openAccount } from '../../commands/accounts.commands.js';
import { issueApiKey } from '../../commands/api-keys.commands.js';
import type { Plan } from '../../domain/ledger/ledger.events.js';
import { createServices, type Services } from '../../infra/bootstrap.js';
import { loadConfig, type Config } from '../../infra/config.js';
import { importFromDirectory } from '../../infra/sources/import-sources.js';
import { importConfiguredSources } from '../../infra/startup/import-sources.js';
import { MINIMAL_SANCTIONS_DIR } from '../helpers/source-fixtures.js';
import { buildApp } from '../../read-api/app.js';
import { adapterEnv } from '../external/adapter-env.js';

/** A whole service on a fresh temporary data directory, driven through `app.inject` (no port). */
export interface TestService {
  readonly services: Services;
  readonly app: FastifyInstance;
  readonly dataDir: string;
  /** Opens an account with a key; returns the key and ids. */
  account(options?: {
    plan?: Plan;
    depositUsd?: number;
    capUsd?: number | null;
    organization?: boolean;
  }): Promise<{ userId: string; apiKey: string; keyId: string }>;
  close(): Promise<void>;
}

export async function startTestService(
  env: Record<string, string> = {},
  dataDir?: string,
  /** Adjusts the loaded configuration past its checks (e.g. ROLE=projections on the embedded log, for a test whose other roles live in this process). */
  adjust: (config: Config) => Config = (config) => config,
  /** `sanctions: 'none'` (or SVC_SOURCES_DIR: ''): a service that never imported a sanctions list (it fails closed). */
  options: { sanctions?: 'minimal' | 'none' } = {},
): Promise<TestService> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'svc-test-')));
  // Embedded unless this run chose other adapters (npm run test:external: Kafka and FerretDB, then PostgreSQL).
  const config = adjust(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ...adapterEnv(process.env, dir), ...env }));
  const services = await createServices(config);
  await services.start();
  if (config.SVC_SOURCES_DIR) await importConfiguredSources(services, () => undefined);
  // Without SVC_SOURCES_DIR the service would hold no sanctions list and fail closed: import the minimal
  // OFAC fixture the way an operator's `data sync` would (one real import, made-up data). A test that sets
  // SVC_SOURCES_DIR to '' asks for a service without any data, as does `sanctions: 'none'`.
  else if (options.sanctions !== 'none' && env.SVC_SOURCES_DIR === undefined) {
    await importFromDirectory(services.commands, MINIMAL_SANCTIONS_DIR);
    await services.projections.whenCaughtUp();
  }
  const app = await buildApp(services.app);
  return {
    services,
    app,
    dataDir: dir,
    async account(options = {}) {
      const opened = await openAccount(services.commands, {
        email: `user-${services.commands.ids.newId()}@example.test`,
        plan: options.plan ?? { kind: 'ledger' },
        ...(options.depositUsd !== undefined ? { depositMicros: Math.round(options.depositUsd * 1e6) } : {}),
        ...(options.capUsd !== undefined ? { monthlyCapMicros: options.capUsd === null ? null : Math.round(options.capUsd * 1e6) } : {}),
        ...(options.organization === false ? {} : { organization: { name: 'Org', subgroup: 'Team' } }),
      });
      const key = await issueApiKey(services.commands, opened.userId);
      await services.projections.whenCaughtUp();
      return { userId: opened.userId, apiKey: key.apiKey, keyId: key.keyId };
    },
    async close() {
      await app.close();
      await services.close();
      if (!dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
