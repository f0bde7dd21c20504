import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../domain/shared/errors.js';
import { errorBody, errorHandler, x402ErrorBody } from './errors.js';

/**
 * The V2 app's `frameworkErrors`: what the router refuses before any route or hook runs, answered in the
 * V2 envelope with a status the document declares, instead of Fastify's bare `{ error, code, statusCode }`
 * body. A path parameter longer than the router's limit (100 characters: longer than any id) names
 * nothing: 404 `not_found`, as an unknown id of any other length (not 414). A malformed URL (bad
 * percent-encoding) is the error handler's 400 `bad_request`.
 */
export function answerRouterRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const { status, body } = errorBody(noSuchPath(request));
    return reply.status(status).send(body);
  }
  return errorHandler(error, request, reply);
}

const pathOf = (request: FastifyRequest): string => request.url.split('?')[0] ?? '';
/** The path as the router reads it (`/scr%65en/…` is `/screen/…`), so a refusal never depends on how it was spelled. */
const decodedPathOf = (request: FastifyRequest): string => {
  try {
    return decodeURIComponent(pathOf(request));
  } catch {
    return pathOf(request);
  }
};
/** An over-long path parameter names nothing: the path (its start) is not found. */
const noSuchPath = (request: FastifyRequest) => fail('not_found', `no such resource: ${pathOf(request).slice(0, 120)}`);

/** The x402 routes whose path parameters are a chain and an address, or a chain and a transaction hash. */
const X402_ADDRESS_PATHS = /^\/(screen|check-address)\/[^/]*\/[^/]*$/;
const X402_TRANSFER_PATHS = /^\/check-transfer\/[^/]*\/[^/]*$/;

/**
 * The x402 app's `frameworkErrors`, in its envelope: a path parameter longer than the router's limit (256
 * characters) is what the route itself answers for one too long (an address: 400 `address_invalid`; a
 * transaction hash: 400 `body_invalid`; a check or job id: 404 `not_found`), not Fastify's 414.
 */
export function answerX402RouterRefusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = decodedPathOf(request);
  const refusal =
    error.code !== 'FST_ERR_MAX_PARAM_LENGTH'
      ? error
      : X402_ADDRESS_PATHS.test(path)
        ? fail('address_invalid', 'not an address: longer than any address')
        : X402_TRANSFER_PATHS.test(path)
          ? fail('body_invalid', 'not a transaction hash: longer than any hash')
          : noSuchPath(request);
  const { status, body } = x402ErrorBody(refusal);
  return reply.status(status).send(body);
}
