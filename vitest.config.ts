import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{domain,commands,projections,processors,read-api,infra,test}/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
