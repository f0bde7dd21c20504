import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isServiceError } from '../../domain/shared/errors.js';
import type { Services } from '../bootstrap.js';
import { parseArgs } from './args.js';
import { lineProgress, NDJSON } from './progress.js';
import { runVerb } from './verbs.js';

/**
 * POST /admin/cli on the CLI channel (cli-channel.ts, a Unix socket only the service's user can open): the
 * CLI's verbs run inside the service, for a caller with the admin token of service.json.
 * With `Accept: application/x-ndjson` the answer is a stream: `{progress}` lines while the verb works
 * (the CLI draws its progress bar from them), then one `{result}` or `{error}` line.
 */
export function registerAdminRoute(app: FastifyInstance, services: Services, token: string): void {
  const expected = Buffer.from(token);
  app.post('/admin/cli', async (request, reply) => {
    const presented = Buffer.from(String(request.headers['x-admin-token'] ?? ''));
    if (expected.length === 0 || presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      return reply.status(404).send({ error: { code: 'not_found', message: 'not found' } });
    }
    const argv = (request.body as { argv?: unknown } | undefined)?.argv;
    if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) {
      return reply.status(400).send({ error: { code: 'bad_request', message: 'argv must be an array of strings' } });
    }
    if (!String(request.headers.accept ?? '').includes(NDJSON)) return runVerb(services, parseArgs(argv));

    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': NDJSON, 'cache-control': 'no-store' });
    const write = (line: unknown) => reply.raw.write(`${JSON.stringify(line)}\n`);
    try {
      write({ result: await runVerb(services, parseArgs(argv), { progress: () => lineProgress(write) }) });
    } catch (error) {
      write({
        error: isServiceError(error) ? { code: error.code, message: error.message } : { code: 'internal_error', message: String(error) },
      });
    } finally {
      reply.raw.end();
    }
  });
}
