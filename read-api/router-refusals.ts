import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../domain/shared/errors.js';
import { errorBody, errorHandler } from './errors.js';

/**
 * The V2 app's `frameworkErrors`: what the router refuses before any route or hook runs, answered in the
 * V2 envelope with a status the document declares, instead of Fastify's bare `{ error, code, statusCode }`
 * body. A path parameter longer than the router's limit (100 characters: longer than any id) names
 * nothing: 404 `not_found`, as an unknown id of any other length (not 414). A malformed URL (bad
 * percent-encoding) is the error handler's 400 `bad_request`.
 */
export function answerRouterRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const { status, body } = errorBody(fail('not_found', `no such resource: ${(request.url.split('?')[0] ?? '').slice(0, 120)}`));
    return reply.status(status).send(body);
  }
  return errorHandler(error, request, reply);
}
