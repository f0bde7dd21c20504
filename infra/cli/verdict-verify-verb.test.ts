import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testReceipts } from '../../test/support/receipt-signer.js';
import { screenStatement } from '../../domain/receipts/verdict-statements.js';
import { verifyVerdictVerb } from './verdict-verify-verb.js';

const statement = screenStatement(
  {
    verdictId: 'call-9',
    caller: { kind: 'api_key', id: 'k-9' },
    input: { address: '0xcd', network: 'BSC' },
    issuedAt: '2026-11-28T06:00:00.000Z',
  },
  { address: '0xcd', network: 'BSC' },
  {
    verdict: { addressLevel: null, riskScore: null, riskCategories: [], sanctionsMatch: null },
    coverage: { dataVersions: { taxonomy: 't', snapshot: null, sources: [] } },
  } as never,
);

describe('npm run cli -- verdict verify <receipt>', () => {
  it('verifies with the data directory’s key ring by default, or a JWKS file, and exits 1 on a forged receipt', async () => {
    const signer = await testReceipts();
    const receipt = await signer.sign(statement);
    const ringPath = signer.path;
    const env = { RECEIPT_KEYS_FILE: ringPath };
    expect(await verifyVerdictVerb({ words: ['verdict', 'verify', receipt], flags: {} }, env)).toEqual({
      exitCode: 0,
      output: { valid: true, kid: signer.jwks().keys[0]?.kid, statement },
    });
    const jwksFile = join(dirname(ringPath), 'jwks.json');
    await writeFile(jwksFile, JSON.stringify(signer.jwks()));
    expect((await verifyVerdictVerb({ words: ['verdict', 'verify', receipt], flags: { jwks: jwksFile } }, {})).exitCode).toBe(0);
    const [header, , signature] = receipt.split('.');
    const forged = [header, Buffer.from(JSON.stringify({ ...statement, verdictId: 'other' })).toString('base64url'), signature].join('.');
    expect(await verifyVerdictVerb({ words: ['verdict', 'verify', forged], flags: {} }, env)).toMatchObject({
      exitCode: 1,
      output: { valid: false },
    });
  });
});
