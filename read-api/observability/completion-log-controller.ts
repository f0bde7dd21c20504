import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, when it completes, instead of Fastify's two (`incoming request` with the whole
 * request serialized, then `request completed`): the completion line carries what the first one said that
 * matters (method, URL) with the status and time, built from plain fields. Request lines are on by default,
 * so every request pays for them. The line carries the request's `correlationId` through the request logger.
 */
export class CompletionLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'correlationId' });
  }

  override incomingRequest(): void {
    // Said once, at completion.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const fields = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}
