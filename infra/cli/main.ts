import { isServiceError } from '../../domain/shared/errors.js';
import { createServices } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { parseArgs } from './args.js';
import { runRemoteVerb } from './remote-verb.js';
import { findRunningService } from './service-file.js';
import { runVerb, type VerbResult } from './verbs.js';

/**
 * `npm run cli -- <verb> [--flags]`: JSON on stdout, non-zero exit on failure. While the service runs on
 * the same DATA_DIR the verb is sent to it; otherwise the CLI opens the data directory itself.
 */
async function main(argv: string[]): Promise<number> {
  // A long-running stdio MCP server, not a JSON verb: it opens no data directory and owns stdout.
  // (loaded only for it: the other verbs need none of the MCP client and wallet code)
  if (argv[0] === 'mcp-proxy') return (await import('./mcp-proxy-verb.js')).runMcpProxy(parseArgs(argv));
  const config = loadConfig();
  const running = await findRunningService(config.DATA_DIR);
  let result: VerbResult;
  if (running) {
    result = await runRemoteVerb(running, argv);
  } else {
    // On a shared EventStoreDB the deployment's own processes relay and process; the CLI only folds and acts.
    const local = config.ROLE === 'all' && config.EVENT_STORE === 'esdb' ? { ...config, ROLE: 'api' as const } : config;
    const services = await createServices(local, (line) => process.stderr.write(`${line}\n`));
    try {
      await services.start();
      result = await runVerb(services, parseArgs(argv));
    } finally {
      await services.close();
    }
  }
  if (result.jsonLines) {
    process.stderr.write(`${JSON.stringify(result.output)}\n`);
    // Written in full before the exit below: process.exit does not wait for a piped stdout to drain.
    const text = result.jsonLines.map((line) => `${JSON.stringify(line)}\n`).join('');
    await new Promise<void>((done) => process.stdout.write(text, () => done()));
  } else {
    process.stdout.write(`${JSON.stringify(result.output, null, 2)}\n`);
  }
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const output = isServiceError(error) ? { error: { code: error.code, message: error.message } } : { error: { code: 'internal_error', message: String(error) } };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    process.exit(1);
  },
);
