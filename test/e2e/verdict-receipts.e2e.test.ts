import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputHashOf } from '../../domain/receipts/canonical-json.js';
import type { VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import { verifyReceipt } from '../../infra/receipts/verify-receipt.js';
import { runVerb } from '../../infra/cli/verbs.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { PARTIES } from '../support/full-check-data.js';
import { startFullCheckService } from '../support/full-check-service.js';
import { pollUntil } from '../support/polling.js';
import type { TestService } from '../support/test-service.js';

/**
 * Every verdict carries a receipt anyone verifies with the service's JWKS: the screen and the full check
 * here (the x402 screen in x402-paid-screen, the transfer check, the inspect and the monitor change in
 * their own suites). A tampered verdict fails; a rotated key still verifies what it signed.
 */

let service: TestService;
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const jwks = async () => (await service.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();

const tamper = (receipt: string, change: (s: VerdictStatement) => unknown): string => {
  const [header, payload, signature] = receipt.split('.') as [string, string, string];
  const statement = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as VerdictStatement;
  return [header, Buffer.from(JSON.stringify(change(statement))).toString('base64url'), signature].join('.');
};

beforeAll(async () => {
  service = await startFullCheckService();
});
afterAll(async () => {
  await service?.close();
});

describe('verdict receipts', () => {
  it('serves the public keys at /.well-known/jwks.json, free, without a private half', async () => {
    const response = await service.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toMatch(/max-age=\d+/);
    const set = response.json();
    expect(set.keys).toEqual([{ kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: expect.any(String), alg: 'EdDSA', use: 'sig' }]);
  });

  it('signs a screen: the receipt verifies and states what the body says, for the key that asked', async () => {
    const user = await service.account({ depositUsd: 5 });
    const address = madeUpEvmAddress('receipt-screen');
    const response = await service.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { ...auth(user.apiKey), 'idempotency-key': 'receipt-1' },
      payload: { address, network: 'ETH' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const check = await verifyReceipt(body.receipt, await jwks());
    expect(check.valid).toBe(true);
    if (!check.valid) return;
    expect(check.statement).toMatchObject({
      version: 1,
      kind: 'screen',
      subject: { network: 'ETH', address: body.address, txHash: null },
      caller: { kind: 'api_key', id: user.keyId },
      inputHash: inputHashOf({ address: body.address, network: 'ETH' }),
      outcome: {
        riskLevel: body.verdict.risk_level,
        riskScore: body.verdict.risk_score,
        categories: [...body.verdict.risk_categories].sort(),
        sanctioned: false,
      },
    });
    expect(check.statement.data.sources.map((s) => s.contentHash)).toEqual(
      body.coverage.data_versions.sources.map((s: { content_hash: string }) => s.content_hash).sort(),
    );
    // An Idempotency-Key replay answers the first call's receipt, not a new one.
    const replay = await service.app.inject({
      method: 'POST',
      url: '/v2/screen',
      headers: { ...auth(user.apiKey), 'idempotency-key': 'receipt-1' },
      payload: { address, network: 'ETH' },
    });
    expect(replay.json().receipt).toBe(body.receipt);
    // Tampered: a verdict changed by one word no longer verifies.
    const changed = tamper(body.receipt, (s) => ({
      ...s,
      outcome: { ...s.outcome, riskLevel: s.outcome.riskLevel === 'high' ? 'low' : 'high' },
    }));
    expect(await verifyReceipt(changed, await jwks())).toMatchObject({ valid: false });
  });

  it('signs a full check when delivered, the same receipt on every poll, and keeps verifying it after a key rotation', async () => {
    const user = await service.account({ depositUsd: 5 });
    const submitted = await service.app.inject({
      method: 'POST',
      url: '/v2/check-address',
      headers: auth(user.apiKey),
      payload: { address: PARTIES.d, network: 'ETH' },
    });
    const { result_url, check_id } = submitted.json();
    const first = await pollUntil(async () => {
      const response = await service.app.inject({ method: 'GET', url: result_url, headers: auth(user.apiKey) });
      return response.statusCode === 200 ? response : null;
    });
    const body = first.json();
    const check = await verifyReceipt(body.receipt, await jwks());
    expect(check).toMatchObject({
      valid: true,
      statement: {
        verdictId: check_id,
        kind: 'full_check',
        caller: { kind: 'api_key', id: user.keyId },
        issuedAt: body.completed_at,
        outcome: { riskLevel: body.verdict.risk_level, decision: body.decision },
      },
    });
    const again = await service.app.inject({ method: 'GET', url: result_url, headers: auth(user.apiKey) });
    expect(again.json().receipt).toBe(body.receipt);

    const rotated = (await runVerb(service.services, { words: ['receipts', 'rotate-key'], flags: {} })).output as {
      active: string;
      retired: string;
    };
    const set = await jwks();
    expect(set.keys.map((k: { kid: string }) => k.kid)).toEqual([rotated.retired, rotated.active]);
    expect(await verifyReceipt(body.receipt, set)).toMatchObject({ valid: true, kid: rotated.retired });
    const resigned = (await service.app.inject({ method: 'GET', url: result_url, headers: auth(user.apiKey) })).json();
    expect(await verifyReceipt(resigned.receipt, set)).toMatchObject({ valid: true, kid: rotated.active });
  });
});
