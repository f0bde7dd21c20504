import { describe, expect, it } from 'vitest';
import { STORED_SCREENS_V2 } from '../../test/support/stored-screens.js';
import { eventRegistry } from '../events/registry.js';
import type { ChargeDetails } from '../ledger/ledger.events.js';
import { detachedScreenReceiptOf, screenReceiptToKeep, type ScreenCharge } from './charged-screen-receipt.js';
import { compactReceiptOf, type DetachedReceipt } from './detached-receipt.js';

/**
 * A screen's charge keeps only what it does not state of the receipt: the screens Charged version 2 kept
 * whole (test/fixtures/verdicts/screens-v2.json, with the receipts GET /v2/verdicts/{id} served then),
 * kept short, give back the very compact JWS served.
 */
const charges = STORED_SCREENS_V2.screens.map((screen) => {
  const parsed = eventRegistry.parse({ ...screen.event, streamId: `ledger-${STORED_SCREENS_V2.ownerId}`, revision: 0n } as never);
  if (parsed?.type !== 'Charged') throw new Error('the fixture holds Charged events');
  const details: ChargeDetails = parsed.data.details;
  return {
    charge: { chargeId: parsed.data.chargeId, details },
    whole: details.receipt as DetachedReceipt,
    served: JSON.parse(screen.body).receipt as string,
  };
});

describe('the receipt a screen charge keeps', () => {
  it('is the signature, the key id, the time and the data only, and gives back the compact JWS served, byte for byte', () => {
    expect(charges.length).toBeGreaterThan(3);
    for (const { charge, whole, served } of charges) {
      expect(compactReceiptOf(whole)).toBe(served);
      const kept = JSON.parse(JSON.stringify(screenReceiptToKeep(charge, whole)));
      expect(Object.keys(kept).sort()).toEqual(['data', 'issuedAt', 'kid', 'signature']);
      expect(JSON.stringify(kept).length).toBeLessThan(JSON.stringify(whole).length / 2);
      const rebuilt = detachedScreenReceiptOf(charge, kept);
      expect(rebuilt).toEqual(whole);
      expect(compactReceiptOf(rebuilt!)).toBe(served);
    }
  });

  it('is the receipt whole when the charge does not state its statement', () => {
    const { charge, whole } = charges[1]!;
    const otherCaller = { ...whole, statement: { ...whole.statement, caller: { kind: 'account' as const, id: 'someone' } } };
    const otherOutcome = { ...whole, statement: { ...whole.statement, outcome: { ...whole.statement.outcome, riskScore: 1 } } };
    const noSummary: ScreenCharge = { ...charge, details: { ...charge.details, screen: undefined } };
    for (const [facts, receipt] of [
      [charge, otherCaller],
      [charge, otherOutcome],
      [noSummary, whole],
    ] as const) {
      expect(screenReceiptToKeep(facts, receipt)).toBe(receipt);
      expect(detachedScreenReceiptOf(facts, receipt)).toBe(receipt);
    }
  });

  it('is the receipt whole when its header is not the one its key id gives, or its payload is kept', () => {
    const { charge, whole } = charges[0]!;
    const [, signature] = whole.jws.split('..');
    const header = Buffer.from(JSON.stringify({ kid: 'k', alg: 'EdDSA' })).toString('base64url');
    const otherHeader = { ...whole, jws: `${header}..${signature}` };
    const withPayload = { ...whole, payload: 'e30' };
    expect(screenReceiptToKeep(charge, otherHeader)).toBe(otherHeader);
    expect(screenReceiptToKeep(charge, withPayload)).toBe(withPayload);
  });
});
