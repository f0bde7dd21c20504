import { generateKeyPairSync, sign, verify } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SANCTIONS_JURISDICTIONS } from '../../domain/intel/intel.types.js';
import { SCREEN_SUMMARY_VERSION, type ScreenSummary } from '../../domain/intel/screen-summary.js';
import { screenSummaryOfV1, type ScreenSummaryV1 } from '../../domain/ledger/charged.upcast.js';
import { canonicalJson } from '../../domain/receipts/canonical-json.js';
import { compactReceiptOf, detachedReceipt, detachedReceiptOfCompact } from '../../domain/receipts/detached-receipt.js';
import type { VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import { RISK_LEVELS } from '../../domain/shared/verdict-vocabulary.js';
import { presentScreenSummary } from './screen.presenter.js';

const level = fc.constantFrom(...RISK_LEVELS);
const jurisdictions = fc.uniqueArray(fc.constantFrom(...SANCTIONS_JURISDICTIONS));
const text = fc.string({ maxLength: 12 });

const summaryArb: fc.Arbitrary<ScreenSummary> = fc.record(
  {
    version: fc.constant(SCREEN_SUMMARY_VERSION),
    addressLevel: fc.option(level, { nil: null }),
    riskScore: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
    confidence: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
    sourceCount: fc.nat(20),
    label: fc.option(text, { nil: null }),
    dataAvailable: fc.boolean(),
    sanctionsMatch: fc.option(
      fc.record({
        list: fc.constantFrom(...SANCTIONS_JURISDICTIONS),
        entity: fc.option(text, { nil: null }),
        program: fc.option(text, { nil: null }),
        listEntryId: fc.option(text, { nil: null }),
        listDate: fc.option(text, { nil: null }),
        asset: fc.option(text, { nil: null }),
        source: text,
      }),
      { nil: null },
    ),
    categories: fc.array(fc.record({ slug: text, addressLevel: fc.option(level, { nil: null }) }), { maxLength: 4 }),
    sanctionsChecked: jurisdictions,
    sanctionsNotChecked: jurisdictions,
  },
  {
    requiredKeys: [
      'version',
      'addressLevel',
      'riskScore',
      'confidence',
      'sourceCount',
      'label',
      'dataAvailable',
      'sanctionsMatch',
      'categories',
    ],
  },
);

/** The statement a screen's receipt signs of this summary (its outcome), with the rest drawn. */
const statementOf = (summary: ScreenSummary, verdictId: string, issuedAt: Date, hash: string): VerdictStatement => ({
  version: 1,
  verdictId,
  kind: 'screen',
  subject: { network: 'ETH', address: `0x${hash.slice(0, 40)}`, txHash: null },
  caller: { kind: 'api_key', id: verdictId },
  inputHash: hash,
  issuedAt: issuedAt.toISOString(),
  outcome: {
    riskLevel: summary.addressLevel,
    riskScore: summary.riskScore,
    decision: null,
    categories: [...new Set(summary.categories.map((c) => c.slug))].sort(),
    sanctioned: summary.sanctionsMatch !== null,
  },
  data: { taxonomy: '2026-11-1', snapshot: null, sources: [{ source: 'ofac_sdn', version: '2026-11-01', contentHash: `sha256:${hash}` }] },
});

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'k', cty: 'verdict-statement+json' })).toString('base64url');
/** A compact JWS as infra/receipts/ed25519-verdict-signer.ts signs it: over the statement's RFC 8785 encoding. */
function signed(statement: VerdictStatement): string {
  const input = `${header}.${Buffer.from(canonicalJson(statement)).toString('base64url')}`;
  return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
}
const verifies = (compact: string): boolean => {
  const [h, p, s] = compact.split('.') as [string, string, string];
  return verify(null, Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'));
};

const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
const when = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true });

describe('presenting a light screen kept as a domain fact', () => {
  it('the body parses back into the very summary, and the receipt rebuilt from its detached form is the one signed', () => {
    fc.assert(
      fc.property(summaryArb, fc.uuid(), when, hex64, (summary, verdictId, issuedAt, hash) => {
        const statement = statementOf(summary, verdictId, issuedAt, hash);
        const compact = signed(statement);
        // As stored: through JSON (the event log), as the charge keeps it.
        const stored = JSON.parse(JSON.stringify({ summary, receipt: detachedReceipt(compact, statement) }));
        const body = JSON.parse(JSON.stringify(presentScreenSummary(stored.summary))) as ScreenSummaryV1;
        const receipt = compactReceiptOf(stored.receipt);

        expect(screenSummaryOfV1(body)).toEqual(summary);
        expect(receipt).toBe(compact);
        expect(verifies(receipt)).toBe(true);
        // Nothing the receipt signs is lost: the body states the outcome the statement signs.
        const read = detachedReceiptOfCompact(receipt);
        expect(read).toEqual({ statement, jws: stored.receipt.jws });
        expect(read?.statement.outcome).toMatchObject({
          riskLevel: body.risk_level,
          riskScore: body.risk_score,
          sanctioned: body.sdn_match !== null,
          categories: [...new Set(body.categories.map((c) => c.slug))].sort(),
        });
      }),
      { numRuns: 200 },
    );
  });

  it('a stored compact JWS whose payload is not its statement’s canonical encoding keeps that payload, byte for byte', () => {
    const statement = statementOf(fc.sample(summaryArb, 1)[0] as ScreenSummary, 'v1', new Date('2026-01-01'), 'a'.repeat(64));
    const reordered = Buffer.from(JSON.stringify(statement)).toString('base64url');
    const compact = `${header}.${reordered}.c2ln`;
    const read = detachedReceiptOfCompact(compact);
    expect(read).toMatchObject({ statement, jws: `${header}..c2ln`, payload: reordered });
    expect(compactReceiptOf(read!)).toBe(compact);
    expect(detachedReceiptOfCompact('not-a-jws')).toBeNull();
  });
});
