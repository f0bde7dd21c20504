import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JSONWebKeySet } from 'jose';
import { fail } from '../../domain/shared/errors.js';
import { keyRingSchema, publicKeyOf } from '../receipts/receipt-key-ring.js';
import { verifyReceipt } from '../receipts/verify-receipt.js';
import { flag, type ParsedArgs } from './args.js';
import { dataDirOf } from './service-file.js';

/**
 * `verdict verify <receipt> [--jwks <url-or-file>]`: checks the signature with the key its header names
 * and prints the verdict it signs. The keys: a JWKS URL (the service's /.well-known/jwks.json, ours or
 * anyone's), a JWKS file, or by default the public halves of this data directory's key ring.
 */
export async function verifyVerdictVerb(args: ParsedArgs, env: NodeJS.ProcessEnv): Promise<{ exitCode: number; output: unknown }> {
  const receipt = args.words[2];
  if (!receipt) throw fail('bad_request', 'verdict verify needs the receipt (a compact JWS)');
  const check = await verifyReceipt(receipt.trim(), await keySetOf(flag(args, 'jwks'), env));
  return { exitCode: check.valid ? 0 : 1, output: check };
}

async function keySetOf(source: string | undefined, env: NodeJS.ProcessEnv): Promise<JSONWebKeySet> {
  if (source && /^https?:\/\//.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw fail('backend_unavailable', `${source} answered ${response.status}`);
    return (await response.json()) as JSONWebKeySet;
  }
  if (source) return JSON.parse(await readFile(source, 'utf8')) as JSONWebKeySet;
  const path = env.RECEIPT_KEYS_FILE ?? join(dataDirOf(env), 'receipt-keys.json');
  const ring = keyRingSchema.parse(JSON.parse(await readFile(path, 'utf8')));
  return { keys: ring.keys.map(publicKeyOf) };
}
