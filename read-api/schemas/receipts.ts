import { z } from 'zod';

/** GET /.well-known/jwks.json: the receipts' public keys, retired ones included (RFC 7517 key set). */
export const jwksSchema = z
  .strictObject({
    keys: z.array(
      z.strictObject({
        kty: z.literal('OKP'),
        crv: z.literal('Ed25519'),
        x: z.string().meta({ description: 'The public key, base64url' }),
        kid: z.string().meta({ description: 'Its RFC 7638 thumbprint: the `kid` a receipt’s header names' }),
        alg: z.literal('EdDSA'),
        use: z.literal('sig'),
      }),
    ),
  })
  .meta({
    description:
      'The public keys verdict receipts are signed with, every key ever used (a rotated key still verifies the receipts it signed). See docs/api.md, "Verifying a verdict"',
  });
