import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';

type Socket = FastifyRequest['raw']['socket'];

/**
 * How long a client may take and how many connections it may hold, on every listening app (V2 with the
 * dashboard, and x402). Without them a client trickling its body a byte at a time holds a connection for
 * as long as it likes (Fastify's requestTimeout defaults to 0: none).
 */
export interface ServerLimits {
  /** The whole request, headers and body, must have arrived within this (408 and closed after). Not the handler's time. */
  readonly requestTimeoutMs: number;
  /** The request's headers must have arrived within this. */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections per client address; one more is answered 429 and closed. 0: no cap (e.g. behind a proxy that caps). */
  readonly maxConnectionsPerClient: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  // Longer than the 60 s idle timeout of common load balancers, so the balancer closes first (no 502s).
  keepAliveTimeoutMs: 65_000,
  maxConnectionsPerClient: 64,
};

/** Fastify's options for these limits. Node checks pending requests every `connectionsCheckingInterval`. */
export function serverLimitOptions(
  limits: ServerLimits = DEFAULT_SERVER_LIMITS,
): Partial<FastifyServerOptions> & { http: { headersTimeout: number; connectionsCheckingInterval: number } } {
  // Node refuses a headers timeout longer than the request timeout.
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout, connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(headersTimeout / 4))) },
  };
}

/** How long a connection over the cap may stay open for its 429 before it is destroyed. */
const REFUSED_LINGER_MS = 1_000;

/**
 * Caps the open connections of each client (TCP peer) address. A connection over the cap is marked at
 * accept: its first request is answered 429 `rate_limit_exceeded` (Retry-After: 1) by the first hook,
 * before any route runs, and the connection is closed; one that sends nothing is destroyed after a second.
 * The map holds only addresses with open connections, so it is bounded by them.
 */
export function capConnectionsPerClient(app: FastifyInstance, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  const refused = new WeakSet<Socket>();
  app.server.on('connection', (socket) => {
    const client = socket.remoteAddress ?? 'unknown';
    const count = open.get(client) ?? 0;
    if (count >= max) {
      refused.add(socket);
      setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left <= 0) open.delete(client);
      else open.set(client, left);
    });
  });
  // A callback hook, not an async one: it runs on every request, and a promise per request costs.
  app.addHook('onRequest', (request, reply, done) => {
    if (!refused.has(request.raw.socket)) {
      done();
      return;
    }
    void reply
      .status(429)
      .header('retry-after', '1')
      .header('connection', 'close')
      .send({ error: { code: 'rate_limit_exceeded', message: 'too many open connections from this address' } });
  });
}
