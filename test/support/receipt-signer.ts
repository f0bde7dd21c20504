import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JoseVerdictSigner } from '../../infra/receipts/jose-verdict-signer.js';

/** A real receipts signer on a fresh key ring of its own (a temp directory), for tests that assemble their own deps. */
export async function testReceipts(): Promise<JoseVerdictSigner> {
  return JoseVerdictSigner.open(join(await mkdtemp(join(tmpdir(), 'receipt-keys-')), 'receipt-keys.json'), new Date());
}
