// typescript-eslint strict, plus the two type-aware rules the code leans on: a promise is always awaited or
// explicitly `void`ed, and a switch over a union names every member. Import directions live in
// .dependency-cruiser.cjs; formatting belongs to Prettier.
import { existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Functions fit on a screen (70 lines, blank lines and comments not counted) and nest at most 4 blocks
// deep. The files below are the named exceptions, each with why; a file leaves the list when it is split
// (and the check fails if a listed file no longer exists, so the list cannot go stale silently).
const ROUTES = 'route registration: one plugin closure registers its routes and their handlers';
const ADAPTER = 'an adapter object: its methods share the connection, handles and caches opened once';
const SCRIPT = 'a benchmark or demo script, read top to bottom';
const SQL = 'SQL built as one statement: split across functions it could not be read';
const LONG_FUNCTIONS = {
  'commands/command-executor.ts': 'load, decide, per-stream batching and conflict retries share one closure',
  'domain/address-check/full-verdict.ts': "the full check body, field by field in the spec's order",
  'domain/exposure/exposure-search.ts': 'the exposure search hot loop (labelled breaks across levels; bench:graph)',
  'domain/kyt/transfer-result.ts': "the transfer check body, field by field in the spec's order",
  'domain/shared/event-registry.ts': 'the maps built once are shared by parse, read and upcast',
  'infra/bootstrap.ts': 'createServices: issue 30 item 3 (a topology file per mode) splits it',
  'infra/chain/chain-follower.ts': "the follower's cursor, backoff and reorg handling share one loop",
  'infra/chain/evm-block-ingester.ts': ADAPTER,
  'infra/chain/evm-transaction-decoder.ts': ADAPTER,
  'infra/chain/graph/lmdb-graph-store.ts': ADAPTER,
  'infra/chain/tron-http-decoder.ts': ADAPTER,
  'infra/embedded/lmdb-read-store.ts': ADAPTER,
  'infra/embedded/projection-thread.ts': "the thread's start, ready, invalidations and stop share one closure",
  'infra/full-check/full-check-module.ts': "the full check's wiring (issue 30 item 3 moves it to a feature module)",
  'infra/kafka/kafka-message-bus.ts': ADAPTER,
  'infra/main.ts': "the process's start and stop sequence, read top to bottom",
  'infra/mongo/mongo-read-store.ts': ADAPTER,
  'infra/postgres/pg-graph-fold.ts': SQL,
  'infra/postgres/pg-graph-migrations.ts': SQL,
  'infra/postgres/pg-graph-revert.ts': SQL,
  'infra/postgres/pg-graph-store.ts': ADAPTER,
  'infra/postgres/pg-wakeups.ts': 'the LISTEN connection, its reconnects and its waiters share one closure',
  'infra/sources/ofac-sdn-advanced.parser.ts': 'one pass over the XML: the id tables it builds are read by every entry',
  'infra/x402/gas-wallet.ts': "the wallet's serial queue, nonce and pending settlements share one closure",
  'processors/projection-runner.ts': "the runner's batch, checkpoint timer and rebuild pauses share one closure",
  'processors/relay.ts': "the relay's cursor, batch and backoff share one closure",
  'read-api/dashboard/login.routes.ts': ROUTES,
  'read-api/dashboard/webhooks.routes.ts': ROUTES,
  'read-api/dashboard/workbench/alerts.routes.ts': ROUTES,
  'read-api/routes/alerts-actions.ts': ROUTES,
  'read-api/routes/inspect.routes.ts': ROUTES,
  'read-api/routes/monitors.routes.ts': ROUTES,
  'read-api/routes/policies-actions.ts': ROUTES,
  'read-api/routes/policies.routes.ts': ROUTES,
  'read-api/routes/transfer-check.routes.ts': ROUTES,
  'read-api/routes/webhooks.routes.ts': ROUTES,
  'test/bench/dashboard.bench.ts': SCRIPT,
  'test/bench/graph.bench.ts': SCRIPT,
  'test/bench/kyt.bench.ts': SCRIPT,
  'test/bench/mcp.bench.ts': SCRIPT,
  'test/bench/monitoring.bench.ts': SCRIPT,
  'test/bench/x402.bench.ts': SCRIPT,
  'test/demo/kyt.demo.ts': SCRIPT,
};
const DEEP_BLOCKS = {
  'domain/exposure/exposure-search.ts': 'the per-edge scan of the exposure search: a call per edge would cost bench:graph',
};
for (const file of [...Object.keys(LONG_FUNCTIONS), ...Object.keys(DEEP_BLOCKS)])
  if (!existsSync(new URL(file, import.meta.url)))
    throw new Error(`eslint.config.js names ${file} as an exception, and it no longer exists`);

export default tseslint.config(
  { ignores: ['node_modules/**', '.tmp/**', 'test-artifacts/**', 'data/**', 'read-api/dashboard/assets/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // `_name` marks a binding kept for its position (a destructured field dropped, a callback's unused argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'max-lines-per-function': ['error', { max: 70, skipBlankLines: true, skipComments: true, IIFEs: true }],
      'max-depth': ['error', 4],
    },
  },
  { files: Object.keys(LONG_FUNCTIONS), rules: { 'max-lines-per-function': 'off' } },
  { files: Object.keys(DEEP_BLOCKS), rules: { 'max-depth': 'off' } },
  // A describe block or a contract suite is a list of cases: its length is how many cases it has.
  { files: ['**/*.test.ts', 'test/contracts/*.contract.ts'], rules: { 'max-lines-per-function': 'off' } },
  // In a test a missing value fails the test where it is used (`!` says "this fixture has it"), and answers
  // are probed by shape (`any` on parsed JSON).
  {
    files: ['**/*.test.ts', 'test/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false },
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', module: 'writable', require: 'readonly' },
    },
  },
);
