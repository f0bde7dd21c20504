import type { FastifyInstance } from 'fastify';
import type { SettlementResponse } from '../../../domain/x402/x402-wire.js';
import { REQUEST_ID_HEADER } from '../../observability/request-id.js';

/** What a REST x402 route answered, as the MCP door needs it. */
export interface RestAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  /** The settlement receipt (`payment-response`), when the call settled or its settlement failed. */
  readonly receipt: SettlementResponse | null;
  readonly retryAfterSeconds: number | null;
}

/**
 * Longest argument passed on: past every REST length rule (120), short of the router's 256-character
 * parameter cap, so an over-long argument gets the REST parser's own code instead of a 414.
 */
const MAX_ARGUMENT = 200;

/** A path segment from a tool argument; an empty one would change the route (404), a blank one gets the parser's code. */
export const pathSegment = (value: string): string => encodeURIComponent(value.slice(0, MAX_ARGUMENT) || ' ');

/**
 * Calls a REST x402 route of this same app in process (Fastify's `inject`): the MCP door is a thin
 * adapter, so rate limits, input rules, quotes, verification, the replay guard, settlement and every
 * error code are the REST route's own, never a second copy. The caller's address is the client's, so
 * both doors share its rate-limit buckets.
 */
export async function callRestRoute(
  app: FastifyInstance,
  call: { url: string; payment?: string; clientIp: string; requestId: string },
): Promise<RestAnswer> {
  const response = await app.inject({
    method: 'GET',
    url: call.url,
    remoteAddress: call.clientIp,
    headers: { [REQUEST_ID_HEADER]: call.requestId, ...(call.payment ? { 'x-payment': call.payment } : {}) },
  });
  const receiptHeader = response.headers['payment-response'];
  const retryAfter = Number(response.headers['retry-after']);
  return {
    status: response.statusCode,
    body: response.body ? (JSON.parse(response.body) as Record<string, unknown>) : {},
    receipt:
      typeof receiptHeader === 'string' ? (JSON.parse(Buffer.from(receiptHeader, 'base64').toString('utf8')) as SettlementResponse) : null,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  };
}
