import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{domain,commands,projections,processors,read-api,infra,test}/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests never reach the internet: a service spawned without SVC_SOURCES_DIR does not sync from upstream
    // (the sync tests point SVC_UPSTREAM_MIRROR at a local server and turn it on themselves).
    env: { SVC_SYNC_ON_START: '0' },
  },
});
