import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../infra/receipts/verify-receipt.js';
import { STORED_TRANSFER_CHECKS, type StoredTransferCheck } from '../support/stored-transfer-checks.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { startX402Harness, type X402Harness } from '../support/x402-harness.js';

/**
 * A data directory written before transfer verdicts were domain facts still opens and serves its transfer
 * checks: the events recorded then (TransferCheckCompleted at schema version 1, its `result` the response
 * body; test/fixtures/verdicts) are appended as they were, then read through the API. The result is the
 * body served then, byte for byte, with a receipt over the very statement that body gave.
 */

let service: TestService;
let h: X402Harness;
const byChannel = (served: string) => STORED_TRANSFER_CHECKS.checks.filter((check) => check.served === served);
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
type Owner = { userId: string; keyId: string };

beforeAll(async () => {
  service = await startTestService();
  h = await startX402Harness();
});
afterAll(async () => {
  await service?.close();
  await h?.close();
});

/** The check's events as recorded, under a new id and requested by `owner` (the owner's ids are this service's). */
async function appendAsRecorded(check: StoredTransferCheck, owner: Owner, into: TestService = service): Promise<string> {
  const checkId = into.services.commands.ids.newId();
  const events = check.events.map((event, i) => {
    const data = JSON.parse(
      JSON.stringify(event.data)
        .replaceAll(check.checkId, checkId)
        .replaceAll(STORED_TRANSFER_CHECKS.ownerId, owner.userId)
        .replaceAll(STORED_TRANSFER_CHECKS.keyId, owner.keyId),
    );
    return { id: into.services.commands.ids.eventId(`stored-transfer:${checkId}`, i), type: event.type, data, metadata: event.metadata };
  });
  await into.services.store.append(`transfer-${checkId}`, events as never, { expected: 'no_stream' });
  return checkId;
}

/** The statement a version-1 body's receipt signed: its subject, outcome and data, by the body's fields. */
function statementOfBody(body: Record<string, any>) {
  const composite = body.composite_result;
  const slugs = (composite.categories as { slug: string }[]).map((c) => c.slug);
  const versions = body.coverage.data_versions;
  return {
    kind: 'transfer_check',
    subject: { network: body.chain, address: null, txHash: body.tx_hash },
    issuedAt: body.checked_at,
    outcome: {
      riskLevel: composite.risk_level,
      riskScore: composite.risk_score,
      decision: body.policy_result.recommended_action,
      categories: [...new Set(slugs)].sort(),
      sanctioned: slugs.includes('sanctions'),
    },
    data: {
      taxonomy: versions.taxonomy,
      snapshot: versions.snapshot,
      sources: (versions.sources as { source: string; version: string; content_hash: string }[])
        .map((s) => ({ source: s.source, version: s.version, contentHash: s.content_hash }))
        .sort((a, b) => (a.source === b.source ? a.version.localeCompare(b.version) : a.source.localeCompare(b.source))),
    },
  };
}

describe('transfer checks stored before transfer verdicts were domain facts', () => {
  it('are served the body they were served then, with a receipt over what that body stated', async () => {
    const owner = await service.account({ depositUsd: 5 });
    const jwks = (await service.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    for (const check of byChannel('v2')) {
      const checkId = await appendAsRecorded(check, owner);
      const response = await service.app.inject({ method: 'GET', url: `/v2/transfer/${checkId}/result`, headers: auth(owner.apiKey) });
      expect(response.statusCode, check.checkId).toBe(check.status);
      const { receipt, billing: _billing, ...body } = response.json();
      const expected = JSON.parse(JSON.stringify(check.body).replaceAll(check.checkId, checkId));
      expect(JSON.stringify(body)).toBe(JSON.stringify(expected));
      if (check.status !== 200) continue;
      const verified = await verifyReceipt(receipt, jwks);
      expect(verified).toMatchObject({ valid: true, statement: { verdictId: checkId, ...statementOfBody(expected) } });
    }
  });

  it('paid on x402, are served the body they were served then on the free result route, with a receipt', async () => {
    const jwks = await (await fetch(`${h.url}/.well-known/jwks.json`)).json();
    const x402Checks = byChannel('x402');
    expect(x402Checks.length).toBeGreaterThan(0);
    for (const check of x402Checks) {
      const checkId = await appendAsRecorded(check, { userId: 'none', keyId: 'none' }, h.svc);
      const response = await fetch(`${h.url}/check-transfer-result/${checkId}`);
      expect(response.status, check.checkId).toBe(check.status);
      const { receipt, billing, elapsed_ms: _elapsed, ...body } = await response.json();
      const expected = JSON.parse(JSON.stringify(check.body).replaceAll(check.checkId, checkId));
      expect(JSON.stringify(body)).toBe(JSON.stringify(expected));
      expect(billing).toMatchObject({ model: 'x402', charged_usd: 0, replay: true });
      const verified = await verifyReceipt(receipt, jwks);
      expect(verified).toMatchObject({ valid: true, statement: { verdictId: checkId, ...statementOfBody(expected) } });
    }
  });

  it('answers 404 to anyone but the owner, as any check', async () => {
    const [owner, stranger] = [await service.account({ depositUsd: 5 }), await service.account({ depositUsd: 5 })];
    const checkId = await appendAsRecorded(STORED_TRANSFER_CHECKS.checks[0] as StoredTransferCheck, owner);
    const response = await service.app.inject({ method: 'GET', url: `/v2/transfer/${checkId}/result`, headers: auth(stranger.apiKey) });
    expect(response.statusCode).toBe(404);
  });
});
