import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SANCTIONS_JURISDICTIONS } from '../../domain/intel/intel.types.js';
import { ALERT_LEVELS } from '../../domain/kyt/alert-level.js';
import { RULE_TYPES } from '../../domain/kyt/policy.types.js';
import { transferVerdictOfV1, type TransferResultV1 } from '../../domain/kyt/transfer-check-completed.upcast.js';
import { TRANSFER_VERDICT_VERSION, type TransferVerdict } from '../../domain/kyt/transfer-verdict.js';
import { transferCheckStatement, type VerdictContext } from '../../domain/receipts/verdict-statements.js';
import { TRANSFER_CHAINS } from '../../domain/shared/network.js';
import { ACTIONS, CATEGORY_LEVELS, COMPOSITE_LEVELS } from '../../domain/shared/verdict-vocabulary.js';
import { transferResultSchema } from '../schemas/transfer.js';
import { presentTransferResult } from './transfer.presenter.js';

/**
 * Presenting a transfer verdict loses nothing its receipt signs: for any domain verdict, the body the
 * presenter shapes is valid under the wire schema (the OpenAPI document's), and the statement built from
 * that body, parsed back, is the statement built from the verdict. And the body read back as a verdict
 * (what the upcaster does with a body stored before verdicts were domain facts) presents as the very
 * same bytes: USD and percent go back to micro-USD and fractions exactly at the body's precision.
 */

const wireBody = transferResultSchema.omit({ billing: true, receipt: true });

const address = fc.stringMatching(/^0x[0-9a-f]{40}$/);
const slug = fc.constantFrom('sanctions', 'mixer', 'scam', 'stolen_funds', 'exchange', 'gambling');
const usdMicros = fc.integer({ min: 0, max: 2 ** 40 });
const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const score = fc.integer({ min: 0, max: 100 }).map((tenths) => tenths / 10);
const iso = fc.constantFrom('2026-06-01T09:00:00.000Z', '2026-11-20T10:00:00.500Z', '2025-01-01T00:00:00.000Z');
const day = fc.constantFrom('2025-01-01', '2026-05-30', null);
const text = fc.string({ maxLength: 12 });
const hash = fc.stringMatching(/^sha256:[0-9a-f]{8}$/);

const pathArb = fc.record({
  hops: fc.integer({ min: 1, max: 4 }),
  addresses: fc.array(address, { minLength: 2, maxLength: 4 }),
  usdMicros,
  share: fraction,
  label: fc.option(text, { nil: null }),
  source: slug,
  usdEstimated: fc.boolean(),
});

const senderArb = fc.record({
  address,
  label: fc.option(text, { nil: null }),
  usdMicros,
  weight: fraction,
  legs: fc.integer({ min: 0, max: 5 }),
  dataAvailable: fc.boolean(),
  riskScore: score,
  riskLevel: fc.constantFrom(...COMPOSITE_LEVELS),
  direct: fc.array(
    fc.record({
      slug,
      level: fc.constantFrom(...CATEGORY_LEVELS),
      severity: fc.integer({ min: 0, max: 10 }),
      confidence: fc.integer({ min: 0, max: 100 }),
      sources: fc.array(slug, { maxLength: 2 }),
    }),
    { maxLength: 2 },
  ),
  indirect: fc.array(
    fc.record({
      slug,
      share: fraction,
      hops: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
      usdMicros,
      paths: fc.array(pathArb, { maxLength: 2 }),
    }),
    { maxLength: 2 },
  ),
  graph: fc.constantFrom('analysed', 'budget_exhausted', 'no_history', 'not_available', 'skipped' as const),
});

const categoryShareArb = fc.option(fc.record({ share: fraction, usdMicros }), { nil: null });
const categoryArb = fc.record({
  slug,
  displayName: text,
  level: fc.constantFrom(...CATEGORY_LEVELS),
  severity: fc.integer({ min: 0, max: 10 }),
  direct: categoryShareArb,
  indirect: categoryShareArb,
});

const legArb = fc.record({
  kind: fc.constantFrom('native', 'token' as const),
  token: fc.option(address, { nil: null }),
  symbol: fc.option(text, { nil: null }),
  decimals: fc.option(fc.integer({ min: 0, max: 18 }), { nil: null }),
  from: address,
  to: address,
  amount: fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  usdMicros: fc.option(usdMicros, { nil: null }),
  logIndex: fc.option(fc.integer({ min: 0, max: 500 }), { nil: null }),
});

const alertArb = fc.record({
  category: text,
  riskLevel: fc.constantFrom(...ALERT_LEVELS),
  ruleType: fc.constantFrom(...RULE_TYPES),
  actualShare: fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
  thresholdShare: fc.integer({ min: 0, max: 100 }),
  thresholdValue: fc.integer({ min: 0, max: 100_000 }),
  entityName: fc.option(text, { nil: null }),
  entityAddress: fc.option(address, { nil: null }),
  direction: fc.constant('incoming' as const),
  entityScore: fc.integer({ min: 0, max: 10 }),
});

const coverageArb = fc.record({
  sanctions: fc.record({
    at: iso,
    lists: fc.array(
      fc.record({
        jurisdiction: fc.option(fc.constantFrom(...SANCTIONS_JURISDICTIONS), { nil: null }),
        source: slug,
        name: text,
        version: text,
        listDate: day,
        importedAt: iso,
        contentHash: hash,
      }),
      { maxLength: 2 },
    ),
    checked: fc.subarray([...SANCTIONS_JURISDICTIONS]),
    notChecked: fc.subarray([...SANCTIONS_JURISDICTIONS]),
  }),
  taxonomy: text,
  snapshot: fc.option(hash, { nil: null }),
  sources: fc.array(fc.record({ source: slug, version: text, contentHash: hash, importedAt: iso }), { maxLength: 3 }),
  transferData: fc.array(
    fc.record({
      name: text,
      kind: fc.constantFrom('sample', 'ingested_blocks', 'account_history_api', 'synthetic', null),
      transfers: fc.integer({ min: 0, max: 10_000 }),
      version: fc.option(text, { nil: null }),
      asOf: fc.option(iso, { nil: null }),
      upToBlock: fc.option(fc.integer({ min: 0, max: 30_000_000 }), { nil: null }),
      cap: fc.option(text, { nil: null }),
    }),
    { maxLength: 2 },
  ),
});

const verdictArb: fc.Arbitrary<TransferVerdict> = fc
  .record({
    checkId: fc.uuid(),
    chain: fc.constantFrom(...TRANSFER_CHAINS),
    txHash: fc.stringMatching(/^0x[0-9a-f]{64}$/),
    transaction: fc.record({
      blockNumber: fc.nat(),
      blockTime: iso,
      success: fc.boolean(),
      signer: address,
      to: fc.option(address, { nil: null }),
    }),
    composite: fc.record({
      totalUsdMicros: usdMicros,
      pricing: fc.constantFrom('full', 'partial', 'none' as const),
      weighting: fc.constantFrom('usd', 'equal' as const),
      prices: fc.array(fc.record({ source: text, asOf: day.map((d) => d ?? '2026-01-01') }), { maxLength: 2 }),
      riskScore: score,
      riskLevel: fc.constantFrom(...COMPOSITE_LEVELS),
      unknownShare: fraction,
      legsTotal: fc.nat({ max: 1000 }),
      legs: fc.array(legArb, { maxLength: 3 }),
      sendersTotal: fc.nat({ max: 1000 }),
      senders: fc.array(senderArb, { maxLength: 3 }),
      categories: fc.array(categoryArb, { maxLength: 4 }),
      patterns: fc.array(fc.record({ slug, address, detail: text }), { maxLength: 2 }),
    }),
    policy: fc.record({
      id: fc.option(fc.constantFrom('standard', 'p-1'), { nil: undefined }),
      name: text,
      version: text,
      taxonomyVersion: text,
      worstLevel: fc.option(fc.constantFrom(...ALERT_LEVELS), { nil: null }),
      recommendedAction: fc.constantFrom(...ACTIONS),
      alerts: fc.array(alertArb, { maxLength: 3 }),
      explanations: fc.array(
        fc.record({
          ruleId: text,
          categorySlug: slug,
          exposureUsdMicros: usdMicros,
          note: text,
          sendersTotal: fc.nat({ max: 600 }),
          senders: fc.array(address, { maxLength: 2 }),
        }),
        { maxLength: 3 },
      ),
    }),
    coverage: fc.option(coverageArb, { nil: undefined }),
    checkedAt: iso,
  })
  .map(({ policy, coverage, ...rest }) => {
    // Absent, not undefined: a verdict recorded before policies had ids, or before coverage was kept.
    const { id, ...named } = policy;
    return {
      version: TRANSFER_VERDICT_VERSION,
      ...rest,
      policy: id === undefined ? named : { id, ...named },
      ...(coverage === undefined ? {} : { coverage }),
    };
  });

const contextOf = (v: TransferVerdict): VerdictContext => ({
  verdictId: v.checkId,
  caller: { kind: 'api_key', id: 'key-1' },
  input: { chain: v.chain, tx_hash: v.txHash },
  issuedAt: v.checkedAt,
});

describe('a presented transfer verdict', () => {
  it('is a valid body whose statement, parsed back, is the verdict’s own', () => {
    fc.assert(
      fc.property(verdictArb, (verdict) => {
        const parsed = wireBody.parse(JSON.parse(JSON.stringify(presentTransferResult(verdict))));
        const readBack = transferVerdictOfV1(parsed as unknown as TransferResultV1);
        expect(transferCheckStatement(contextOf(verdict), readBack)).toEqual(transferCheckStatement(contextOf(verdict), verdict));
      }),
      { numRuns: 300 },
    );
  });

  it('read back as a verdict, presents as the very same bytes', () => {
    fc.assert(
      fc.property(verdictArb, (verdict) => {
        const body = JSON.stringify(presentTransferResult(verdict));
        const readBack = transferVerdictOfV1(JSON.parse(body) as TransferResultV1);
        expect(JSON.stringify(presentTransferResult(readBack))).toBe(body);
      }),
      { numRuns: 300 },
    );
  });
});
