import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { z } from 'zod';
import { fail } from '../../domain/shared/errors.js';
import type { PublicReceiptKey } from '../../domain/ports/verdict-signer.port.js';

/**
 * The receipts' Ed25519 keys on disk (docs/ARCHITECTURE.md#verdict-receipts): one JSON file, mode 0600,
 * created at first start in the data directory (or given by the operator, RECEIPT_KEYS_FILE). Rotation
 * adds a key and makes it the active one; retired keys stay, public halves served in the JWKS, so every
 * receipt ever given still verifies.
 */

const storedKeySchema = z.object({
  kid: z.string().min(1),
  createdAt: z.string(),
  retiredAt: z.string().nullable(),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string(), d: z.string() }),
});
export const keyRingSchema = z.object({ version: z.literal(1), active: z.string(), keys: z.array(storedKeySchema).min(1) });
export type KeyRing = z.infer<typeof keyRingSchema>;
export type StoredKey = z.infer<typeof storedKeySchema>;

export { RECEIPT_ALG } from '../../domain/receipts/receipt-header.js';
import { RECEIPT_ALG } from '../../domain/receipts/receipt-header.js';

export async function newStoredKey(now: Date): Promise<StoredKey> {
  const { privateKey } = await generateKeyPair(RECEIPT_ALG, { crv: 'Ed25519', extractable: true });
  const jwk = await exportJWK(privateKey);
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x || !jwk.d) throw fail('internal_error', 'jose exported no Ed25519 key');
  const kid = await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x });
  return { kid, createdAt: now.toISOString(), retiredAt: null, jwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d } };
}

export const activeKeyOf = (ring: KeyRing): StoredKey => {
  const key = ring.keys.find((k) => k.kid === ring.active);
  if (!key) throw fail('store_corrupt', `the receipts' key ring names ${ring.active} active but holds no such key`);
  return key;
};

export const publicKeyOf = (key: StoredKey): PublicReceiptKey & JWK => ({
  kty: key.jwk.kty,
  crv: key.jwk.crv,
  x: key.jwk.x,
  kid: key.kid,
  alg: RECEIPT_ALG,
  use: 'sig',
});

/** Reads the key ring, or creates it with one fresh key when the file does not exist yet. */
export async function loadOrCreateKeyRing(path: string, now: Date): Promise<KeyRing> {
  let text: string | null = null;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== null) {
    const parsed = keyRingSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw fail('store_corrupt', `${path} is not a receipts key ring: ${parsed.error.message}`);
    return parsed.data;
  }
  const key = await newStoredKey(now);
  const ring: KeyRing = { version: 1, active: key.kid, keys: [key] };
  await writeKeyRing(path, ring);
  return ring;
}

/** A new active key; the old one is retired (it signs nothing more, and still verifies). */
export async function rotatedKeyRing(ring: KeyRing, now: Date): Promise<KeyRing> {
  const key = await newStoredKey(now);
  const at = now.toISOString();
  const keys = ring.keys.map((k) => (k.kid === ring.active ? { ...k, retiredAt: at } : k));
  return { version: 1, active: key.kid, keys: [...keys, key] };
}

/** Written to a temp file (mode 0600), fsynced, renamed over the old one: a crash leaves the old ring or the new. */
export async function writeKeyRing(path: string, ring: KeyRing): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomUUID()}.tmp`;
  const file = await open(temp, 'w', 0o600);
  try {
    await file.writeFile(`${JSON.stringify(ring, null, 2)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temp, path);
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
