import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';

/**
 * Standard Webhooks (v1.0.0), symmetric scheme: the secret is `whsec_` + base64 of 32 random bytes
 * (256 bits); each delivery carries `webhook-id` (the delivery id, stable across retries),
 * `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature`: `v1,` + base64 of
 * HMAC-SHA256 over `{id}.{timestamp}.{body}` keyed with the secret's decoded bytes. Several signatures
 * are space-separated, so that during a secret rotation old and new secrets both verify.
 */
export const SECRET_PREFIX = 'whsec_';
export const SECRET_BYTES = 32;

const toBase64 = (bytes: Uint8Array): string => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export function secretFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== SECRET_BYTES) throw new Error(`a webhook secret is ${SECRET_BYTES} bytes`);
  return SECRET_PREFIX + toBase64(bytes);
}

function secretKey(secret: string): Uint8Array {
  return fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
}

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const signed = new TextEncoder().encode(`${id}.${timestampSeconds}.${body}`);
  return `v1,${toBase64(hmac(sha256, secretKey(secret), signed))}`;
}

/** The `webhook-signature` header: one signature per secret still valid, the current one first. */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets.map((secret) => signatureOf(secret, id, timestampSeconds, body)).join(' ');
}
