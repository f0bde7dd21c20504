import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * A receipt verifies with a standard JOSE library in Python (joserfc from PyPI), against the JWKS the
 * service serves, as docs/api.md shows a customer doing it: test/python/verify_receipt.py. CI installs
 * joserfc in a venv and names its interpreter in RECEIPTS_PYTHON; without it the suite says it is skipped.
 */
const python = process.env.RECEIPTS_PYTHON;
const run = promisify(execFile);

let service: TestService;
beforeAll(async () => {
  if (python) service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

async function verifyInPython(
  jwksFile: string,
  receipt: string,
): Promise<{ code: number; out: { valid: boolean; kid?: string; statement?: unknown } }> {
  const script = join(import.meta.dirname, '..', 'python', 'verify_receipt.py');
  try {
    const { stdout } = await run(python ?? 'python3', [script, jwksFile, receipt]);
    return { code: 0, out: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, out: JSON.parse(failed.stdout) };
  }
}

describe.skipIf(!python)('verifying a receipt in Python (joserfc; RECEIPTS_PYTHON unset: skipped)', () => {
  it('verifies a screen’s receipt against the served JWKS, refuses it tampered, and still verifies it after a rotation', async () => {
    const user = await service.account({ depositUsd: 1 });
    const response = await service.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { authorization: `Bearer ${user.apiKey}` },
      payload: { address: madeUpEvmAddress('python-receipt'), network: 'ETH' },
    });
    const { receipt } = response.json();
    const jwksFile = join(service.dataDir, 'jwks.json');
    const fetchJwks = async () => writeFile(jwksFile, (await service.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).body);
    await fetchJwks();
    const verified = await verifyInPython(jwksFile, receipt);
    expect(verified).toMatchObject({
      code: 0,
      out: { valid: true, statement: { kind: 'screen', caller: { kind: 'api_key', id: user.keyId } } },
    });

    const [header, payload, signature] = (receipt as string).split('.') as [string, string, string];
    const statement = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { outcome: { riskScore: number | null } };
    const tampered = { ...statement, outcome: { ...statement.outcome, riskScore: (statement.outcome.riskScore ?? 0) + 1 } };
    const forged = [header, Buffer.from(JSON.stringify(tampered)).toString('base64url'), signature].join('.');
    expect(await verifyInPython(jwksFile, forged)).toMatchObject({ code: 1, out: { valid: false } });

    await service.services.receipts.rotate(new Date());
    await fetchJwks();
    expect(await verifyInPython(jwksFile, receipt)).toMatchObject({ code: 0, out: { valid: true, kid: verified.out.kid } });
  });
});
