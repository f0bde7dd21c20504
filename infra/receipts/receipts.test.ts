import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompactSign, importJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import { screenStatement } from '../../domain/receipts/verdict-statements.js';
import type { VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import { Ed25519VerdictSigner, RECEIPT_CONTENT_TYPE } from './ed25519-verdict-signer.js';
import { activeKeyOf, keyRingSchema } from './receipt-key-ring.js';
import { verifyReceipt } from './verify-receipt.js';

const now = new Date('2026-11-28T05:00:00.000Z');
const ringPath = async () => join(await mkdtemp(join(tmpdir(), 'receipts-')), 'receipt-keys.json');

const statement: VerdictStatement = screenStatement(
  { verdictId: 'call-1', caller: { kind: 'api_key', id: 'k-1' }, input: { address: '0xab', network: 'ETH' }, issuedAt: now.toISOString() },
  { address: '0xab', network: 'ETH' },
  {
    verdict: { addressLevel: 'high', riskScore: 80, riskCategories: ['mixer'], sanctionsMatch: null },
    coverage: { dataVersions: { taxonomy: 't-1', snapshot: 's-1', sources: [{ source: 'ofac', version: 'v1', contentHash: 'h1' }] } },
  } as never,
);

const tamper = (receipt: string, change: (s: VerdictStatement) => VerdictStatement): string => {
  const [header, payload, signature] = receipt.split('.') as [string, string, string];
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as VerdictStatement;
  return [header, Buffer.from(JSON.stringify(change(decoded))).toString('base64url'), signature].join('.');
};

describe('verdict receipts', () => {
  it('creates the key ring at first start (mode 0600) and signs a receipt that verifies against the JWKS', async () => {
    const path = await ringPath();
    const signer = await Ed25519VerdictSigner.open(path, now);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const receipt = await signer.sign(statement);
    const check = await verifyReceipt(receipt, signer.jwks());
    expect(check).toEqual({ valid: true, kid: signer.jwks().keys[0]?.kid, statement });
    expect(JSON.stringify(signer.jwks())).not.toContain('"d"');
  });

  it('gives the very bytes jose’s CompactSign gives for the same statement and key: a standard compact JWS', async () => {
    const path = await ringPath();
    const signer = await Ed25519VerdictSigner.open(path, now);
    const { kid, jwk } = activeKeyOf(keyRingSchema.parse(JSON.parse(await readFile(path, 'utf8'))));
    const byJose = await new CompactSign(new TextEncoder().encode(canonicalJson(statement)))
      .setProtectedHeader({ alg: 'EdDSA', kid, cty: RECEIPT_CONTENT_TYPE })
      .sign(await importJWK({ ...jwk, alg: 'EdDSA' }, 'EdDSA'));
    expect(await signer.sign(statement)).toBe(byJose);
  });

  it('signs deterministically: the same statement under the same key is the same receipt, also after a restart', async () => {
    const path = await ringPath();
    const first = await (await Ed25519VerdictSigner.open(path, now)).sign(statement);
    const again = await (await Ed25519VerdictSigner.open(path, now)).sign(statement);
    expect(again).toBe(first);
  });

  it('refuses a tampered verdict, a receipt of another key ring and a forged header', async () => {
    const signer = await Ed25519VerdictSigner.open(await ringPath(), now);
    const receipt = await signer.sign(statement);
    const lowered = tamper(receipt, (s) => ({ ...s, outcome: { ...s.outcome, riskLevel: 'low' } }));
    expect(await verifyReceipt(lowered, signer.jwks())).toMatchObject({ valid: false });
    const stranger = await Ed25519VerdictSigner.open(await ringPath(), now);
    expect(await verifyReceipt(receipt, stranger.jwks())).toMatchObject({ valid: false });
    expect(await verifyReceipt('not.a.receipt', signer.jwks())).toMatchObject({ valid: false });
  });

  it('rotates: the new key signs, the retired one still verifies the receipts it gave, on disk too', async () => {
    const path = await ringPath();
    const signer = await Ed25519VerdictSigner.open(path, now);
    const old = await signer.sign(statement);
    const { kid, retired } = await signer.rotate(new Date('2026-11-29T00:00:00.000Z'));
    expect(kid).not.toBe(retired);
    const fresh = await signer.sign(statement);
    expect(await verifyReceipt(fresh, signer.jwks())).toMatchObject({ valid: true, kid });
    const reopened = await Ed25519VerdictSigner.open(path, now);
    expect(await verifyReceipt(old, reopened.jwks())).toMatchObject({ valid: true, kid: retired });
    expect(reopened.keys()).toEqual([
      { kid: retired, created_at: now.toISOString(), retired_at: '2026-11-29T00:00:00.000Z', active: false },
      { kid, created_at: '2026-11-29T00:00:00.000Z', retired_at: null, active: true },
    ]);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ active: kid });
  });
});
