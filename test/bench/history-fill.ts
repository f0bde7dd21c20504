import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openAccount } from '../../commands/accounts.commands.js';
import { issueApiKey } from '../../commands/api-keys.commands.js';
import { screenAddress } from '../../commands/screen-address.js';
import { createServices } from '../../infra/bootstrap.js';
import { loadConfig } from '../../infra/config.js';
import { importConfiguredSources } from '../../infra/startup/import-sources.js';

/**
 * bench:history's writer: paid light screens through the command layer (the same `screenAddress` the
 * route calls: charge on the ledger, verdict, usage row), spread over USERS accounts, until the data
 * directory holds TARGET of them. fsync off while filling (what is measured is the restart, not this).
 */
const dataDir = process.env.DATA_DIR!;
const target = Number(process.env.TARGET);
const users = Number(process.env.USERS ?? 1000);
const concurrency = 256;

// External mode (bench:history:external): the adapters and servers it chose are passed through.
const adapters = Object.fromEntries(
  [
    'EVENT_STORE',
    'POSTGRES_URL',
    'POSTGRES_SCHEMA',
    'BUS',
    'READ_STORE',
    'KAFKA_BROKERS',
    'KAFKA_PREFIX',
    'KAFKA_SESSION_TIMEOUT_MS',
    'MONGO_URL',
    'MONGO_DB',
  ].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
);
const services = await createServices(
  loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SVC_FSYNC: '0', SVC_SOURCES_DIR: process.env.SVC_SOURCES_DIR ?? '', ...adapters }),
);
await services.start();
await importConfiguredSources(services, () => undefined);
const statePath = join(dataDir, 'bench-history.json');
const state: { done: number; accounts: { userId: string; keyId: string }[] } = existsSync(statePath)
  ? JSON.parse(await readFile(statePath, 'utf8'))
  : { done: 0, accounts: [] };
while (state.accounts.length < users) {
  const opened = await openAccount(services.commands, {
    email: `bench-${state.accounts.length}@example.test`,
    plan: { kind: 'ledger' },
    depositMicros: 1e12,
  });
  const key = await issueApiKey(services.commands, opened.userId);
  state.accounts.push({ userId: opened.userId, keyId: key.keyId });
}
const started = performance.now();
const from = state.done;
let next = state.done;
const deps = { ...services.commands, intel: services.intel };
const worker = async () => {
  while (next < target) {
    const n = next++;
    const account = state.accounts[n % state.accounts.length]!;
    const address = '0x' + (n % 4096).toString(16).padStart(40, '0');
    await screenAddress(deps, { userId: account.userId, keyId: account.keyId, callId: `bench-${n}`, address, network: 'ETH' });
    if (n % 50_000 === 0 && n > from) process.stdout.write(`  ${n} calls\n`);
  }
};
await Promise.all(Array.from({ length: concurrency }, worker));
await services.whenCaughtUp();
state.done = Math.max(state.done, target);
await writeFile(statePath, JSON.stringify(state));
await services.close();
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `filled ${target - from} calls in ${seconds.toFixed(1)} s (${Math.round((target - from) / Math.max(seconds, 0.001))}/s)\n`,
);
