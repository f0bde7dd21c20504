import { generateKeyPairSync, verify } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { screenStatement } from '../../domain/receipts/verdict-statements.js';
import { Ed25519VerdictSigner } from './ed25519-verdict-signer.js';
import { signInline, startSigningThread, type SigningThread } from './signing-thread.js';
import { verifyReceipt } from './verify-receipt.js';

const now = new Date('2026-11-29T18:00:00.000Z');
const statementOf = (verdictId: string) =>
  screenStatement(
    { verdictId, caller: { kind: 'api_key', id: 'k-1' }, input: { address: '0xab', network: 'ETH' }, issuedAt: now.toISOString() },
    { address: '0xab', network: 'ETH' },
    {
      verdict: { addressLevel: 'low', riskScore: 0, riskCategories: [], sanctionsMatch: null },
      coverage: { dataVersions: { taxonomy: 't-1', snapshot: 's-1', sources: [] } },
    } as never,
  );

const threads: SigningThread[] = [];
const started = () => {
  const thread = startSigningThread();
  threads.push(thread);
  return thread;
};
afterEach(async () => {
  for (const thread of threads.splice(0)) await thread.close();
});

describe('the signing thread', () => {
  it('signs the very bytes the calling thread would, for every signing of one turn, in order', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const thread = started();
    const inputs = Array.from({ length: 50 }, (_, i) => `header.payload-${String(i)}`);
    const signatures = await Promise.all(inputs.map((input) => thread.sign('kid-1', privateKey, input)));
    expect(signatures).toEqual(inputs.map((input) => signInline(privateKey, input)));
    expect(verify(null, Buffer.from(inputs[7]!), publicKey, Buffer.from(signatures[7]!, 'base64url'))).toBe(true);
  });

  it('signs a turn that changes keys with each signing’s own key', async () => {
    const first = generateKeyPairSync('ed25519').privateKey;
    const second = generateKeyPairSync('ed25519').privateKey;
    const thread = started();
    const signed = await Promise.all([thread.sign('a', first, 'one'), thread.sign('b', second, 'two'), thread.sign('a', first, 'three')]);
    expect(signed).toEqual([signInline(first, 'one'), signInline(second, 'two'), signInline(first, 'three')]);
  });

  it('signs on the calling thread once the thread is gone, what it held and everything after', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const thread = started();
    const held = thread.sign('kid-1', privateKey, 'held');
    await thread.close();
    expect(await held).toBe(signInline(privateKey, 'held'));
    expect(await thread.sign('kid-1', privateKey, 'after')).toBe(signInline(privateKey, 'after'));
  });

  it('gives the receipts signed on the answering thread, byte for byte, and they verify against the JWKS', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'signing-thread-')), 'receipt-keys.json');
    const inline = await Ed25519VerdictSigner.open(path, now);
    const threaded = await Ed25519VerdictSigner.open(path, now, { thread: started() });
    const statements = ['v-1', 'v-2', 'v-3'].map(statementOf);
    const receipts = await Promise.all(statements.map((s) => threaded.sign(s)));
    expect(receipts).toEqual(statements.map((s) => inline.signNow(s)));
    expect(await verifyReceipt(receipts[1]!, threaded.jwks())).toEqual({
      valid: true,
      kid: threaded.jwks().keys[0]?.kid,
      statement: statements[1],
    });
  });

  it('signs with the new key after a rotation, and the old receipts keep verifying', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'signing-thread-')), 'receipt-keys.json');
    const signer = await Ed25519VerdictSigner.open(path, now, { thread: started() });
    const before = await signer.sign(statementOf('v-1'));
    const { kid } = await signer.rotate(now);
    const after = await signer.sign(statementOf('v-2'));
    expect(await verifyReceipt(after, signer.jwks())).toMatchObject({ valid: true, kid });
    expect(await verifyReceipt(before, signer.jwks())).toMatchObject({ valid: true });
    expect(after).toBe(signer.signNow(statementOf('v-2')));
  });
});
