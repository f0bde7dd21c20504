import { createServices } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { isAllInOne } from '../topology/role.js';
import type { ParsedArgs } from './args.js';
import { runVerb, type VerbResult } from './verbs.js';

/**
 * Runs a verb on the data directory itself (no service runs on it). Loaded only then: the whole
 * bootstrap is most of the CLI's start-up, which `--help`, a refusal and a verb sent to the running
 * service do without.
 */
export async function runLocalVerb(args: ParsedArgs): Promise<VerbResult> {
  const config = loadConfig();
  // On a shared log (EventStoreDB, PostgreSQL) the deployment's own processes relay and process; the CLI only folds and acts.
  const local = isAllInOne(config.ROLE) && config.EVENT_STORE !== 'embedded' ? { ...config, ROLE: 'api' } : config;
  const services = await createServices(local, (line) => process.stderr.write(`${line}\n`));
  try {
    await services.start();
    return await runVerb(services, args);
  } finally {
    await services.close();
  }
}
