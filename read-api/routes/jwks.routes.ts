import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { VerdictSigner } from '../../domain/ports/verdict-signer.port.js';

/** Key sets change only by rotation: a verifier may cache the set this long, and fetch again on an unknown `kid`. */
const JWKS_MAX_AGE_SECONDS = 300;

/**
 * GET /.well-known/jwks.json, free and unauthenticated, on both ports (docs/api.md, "Verifying a
 * verdict"): anyone holding a receipt verifies it with these keys, without an account.
 */
export function registerJwksRoute(
  app: FastifyInstance,
  receipts: Pick<VerdictSigner, 'jwks'>,
  options: { schema: object; onRequest?: onRequestHookHandler },
): void {
  app.get('/.well-known/jwks.json', options, async (_request, reply) =>
    reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`).send(receipts.jwks()),
  );
}
