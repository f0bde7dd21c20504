import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createServiceLogger } from '../../infra/system/logger.js';
import { CompletionLogController } from './completion-log-controller.js';

/** Lines the service logger wrote, parsed. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, logger: createServiceLogger('info', sink).logger };
}

describe('CompletionLogController', () => {
  it('logs one line per request, at completion, with method, URL, status, time and correlation id', async () => {
    const { lines, logger } = capture();
    const app = Fastify({ loggerInstance: logger, logController: new CompletionLogController(), genReqId: () => 'req-1' });
    app.post('/v2/screen', async () => ({ ok: true }));
    await app.inject({ method: 'POST', url: '/v2/screen?x=1', payload: { address: 'a' } });
    await app.close();

    const requestLines = lines.filter((line) => line.correlationId === 'req-1');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      level: 'info',
      msg: 'request completed',
      method: 'POST',
      url: '/v2/screen?x=1',
      statusCode: 200,
    });
    expect(typeof requestLines[0]?.responseTime).toBe('number');
  });

  it('logs a failed request once, at error, with its error', async () => {
    const { lines, logger } = capture();
    const app = Fastify({ loggerInstance: logger, logController: new CompletionLogController(), genReqId: () => 'req-2' });
    app.get('/boom', () => {
      throw new Error('broken');
    });
    await app.inject({ method: 'GET', url: '/boom' });
    await app.close();

    const completion = lines.filter((line) => line.correlationId === 'req-2' && line.statusCode === 500);
    expect(completion).toHaveLength(1);
    expect(lines.some((line) => line.msg === 'incoming request')).toBe(false);
  });
});
