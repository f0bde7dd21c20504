import { defineConfig } from 'vitest/config';

/**
 * `npm run test:external`: the real-server suites and the end-to-end suites, with the adapters chosen by the
 * environment that ci/test-external.sh sets (BUS=kafka, READ_STORE=mongo). Files run one at a time: they
 * share one broker and one FerretDB on a 2-core machine, and timing-sensitive suites (crash recovery) must
 * not compete with each other for the CPU.
 */
export default defineConfig({
  test: {
    include: ['test/external/**/*.test.ts', 'test/e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    // As in vitest.config.ts: a service spawned without SVC_SOURCES_DIR never syncs from the internet.
    env: { SVC_SYNC_ON_START: '0' },
  },
});
