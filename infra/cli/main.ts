import { isServiceError } from '../../domain/shared/errors.js';
import { argvOf, parseCommandLine } from './command-line.js';
import { runRemoteVerb } from './remote-verb.js';
import { dataDirOf, findRunningService } from './service-file.js';
import type { VerbResult } from './verbs.js';

/** Written in full before process.exit, which does not wait for a piped stdout to drain. */
const writeOut = (text: string) =>
  new Promise<void>((done) => {
    process.stdout.write(text, () => {
      done();
    });
  });

/**
 * `npx tsx infra/cli/main.ts <verb> [--flags]` (or `npm run --silent cli -- …`): JSON on stdout, a
 * non-zero exit on failure, 2 for a usage error (unknown verb or flag: the message and the verb's usage
 * on stderr). While the service runs on the same DATA_DIR the verb is sent to it; otherwise the CLI
 * opens the data directory itself. Each path imports only what it needs (start-up time).
 */
async function main(argv: string[]): Promise<number> {
  const line = parseCommandLine(argv);
  if (line.kind === 'help') {
    await writeOut(line.text);
    return 0;
  }
  if (line.kind === 'refused') {
    process.stderr.write(line.text);
    await writeOut(`${JSON.stringify({ error: line.error }, null, 2)}\n`);
    return 2;
  }
  // A long-running stdio MCP server, not a JSON verb: it opens no data directory and owns stdout.
  if (line.verb === 'mcp-proxy') return (await import('./mcp-proxy-verb.js')).runMcpProxy(line.args);
  // Offline: a receipt verifies with a key set alone, never with the service's help.
  if (line.verb === 'verdict verify') {
    const result = await (await import('./verdict-verify-verb.js')).verifyVerdictVerb(line.args, process.env);
    await writeOut(`${JSON.stringify(result.output, null, 2)}\n`);
    return result.exitCode;
  }
  const running = await findRunningService(dataDirOf(process.env));
  const result: VerbResult = running
    ? await runRemoteVerb(running, argvOf(line.args))
    : await (await import('./local-verb.js')).runLocalVerb(line.args);
  if (result.jsonLines) {
    process.stderr.write(`${JSON.stringify(result.output)}\n`);
    await writeOut(result.jsonLines.map((jsonLine) => `${JSON.stringify(jsonLine)}\n`).join(''));
  } else {
    process.stdout.write(`${JSON.stringify(result.output, null, 2)}\n`);
  }
  return result.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const output = isServiceError(error)
      ? { error: { code: error.code, message: error.message } }
      : { error: { code: 'internal_error', message: String(error) } };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    process.exit(1);
  },
);
