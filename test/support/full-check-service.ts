import { rm } from 'node:fs/promises';
import { writeFullCheckSources } from './full-check-data.js';
import { startTestService, type TestService } from './test-service.js';

/** A test service on the full-check tests' own sources directory, which its `close` removes too. */
export async function startFullCheckService(): Promise<TestService> {
  const sources = await writeFullCheckSources();
  const service = await startTestService({ SVC_SOURCES_DIR: sources });
  return {
    ...service,
    async close() {
      await service.close();
      await rm(sources, { recursive: true, force: true });
    },
  };
}
