import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ed25519VerdictSigner } from '../../infra/receipts/ed25519-verdict-signer.js';

/** A real receipts signer on a fresh key ring of its own (a temp directory), for tests that assemble their own deps. */
export async function testReceipts(): Promise<Ed25519VerdictSigner> {
  return Ed25519VerdictSigner.open(join(await mkdtemp(join(tmpdir(), 'receipt-keys-')), 'receipt-keys.json'), new Date());
}
