import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServices } from '../../../infra/bootstrap.js';
import { loadConfig } from '../../../infra/config.js';
import { buildApp } from '../../../read-api/app.js';

/**
 * The OpenAPI document the V2 app serves at /v2/openapi.json, built in-process from the app itself
 * (routes and their zod schemas) on a throwaway data directory with the default configuration: no port,
 * no data, nothing started.
 */
export async function servedV2Document(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-openapi-'));
  const services = await createServices(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SVC_SYNC_ON_START: '0' }));
  try {
    const app = await buildApp(services.app);
    await app.ready();
    const document = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return document;
  } finally {
    await services.close();
    await rm(dir, { recursive: true, force: true });
  }
}
