import { transferCheckDecider } from '../../domain/kyt/transfer-check.decider.js';
import { transferCheckStream, type Requester } from '../../domain/kyt/transfer-check.events.js';
import { categoryOf, TAXONOMY } from '../../domain/intel/taxonomy.js';
import type { PolicyAlert, PolicyFact } from '../../domain/kyt/policy-engine.js';
import type { Services } from '../../infra/bootstrap.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { transferVerdictFixture } from './transfer-verdict-fixture.js';
import { FIXTURE_COVERAGE } from './intel-fixtures.js';

/** A spec-shaped alert for tests. */
export const policyAlert = (riskLevel: PolicyAlert['riskLevel'], category: string, entityAddress: string): PolicyAlert => ({
  category,
  riskLevel,
  ruleType: 'Direct exposure',
  actualShare: 100,
  thresholdShare: 0,
  thresholdValue: 0,
  entityName: 'Made-up entity',
  entityAddress,
  direction: 'incoming',
  entityScore: 0,
});

/** Indirect exposure to stolen funds worth 6,600 USD from a made-up sender: the standard policy's I4 raises Low, I2 (from 20,000 USD) nothing. */
export function stolenFundsFact(seed: string): PolicyFact {
  const sender = madeUpEvmAddress(seed);
  const definition = categoryOf(TAXONOMY, 'stolen_funds')!;
  return {
    ruleType: 'Origin of funds / Indirect',
    slug: 'stolen_funds',
    displayName: definition.displayName,
    level: definition.level,
    share: 0.5,
    usdMicros: 6_600_000_000,
    entityName: null,
    anchor: { address: sender, label: null },
    senders: [sender],
  };
}

/**
 * Records a transfer check as the pipeline would (requested, then completed with these alerts) through
 * the transfer check's own decider, without a chain: the processors then react to its events.
 */
export async function recordCompletedTransferCheck(
  services: Services,
  input: {
    checkId: string;
    requester: Requester;
    alerts: readonly PolicyAlert[];
    txHash?: string;
    /** The facts the policy was applied to, which a backtest replays. */
    facts?: readonly PolicyFact[];
    /** The rule and category behind each alert, index-aligned, as the body's `explanations` name them. */
    explanations?: readonly { rule_id: string; category_slug: string }[];
  },
): Promise<void> {
  const { executor, clock } = services.commands;
  const stream = transferCheckStream(input.checkId);
  const txHash = input.txHash ?? `0x${input.checkId.replace(/-/g, '').padEnd(64, '0').slice(0, 64)}`;
  const at = clock.now().toISOString();
  await executor.execute(
    stream,
    transferCheckDecider,
    { type: 'RequestTransferCheck', checkId: input.checkId, chain: 'ETH', txHash, requester: input.requester, at },
    { commandId: `test-request:${input.checkId}` },
  );
  const made = transferVerdictFixture({ checkId: input.checkId, txHash, alerts: input.alerts, checkedAt: at });
  const explanations = (input.explanations ?? []).map((e) => ({
    ruleId: e.rule_id,
    categorySlug: e.category_slug,
    exposureUsdMicros: 0,
    note: '',
    sendersTotal: 0,
    senders: [],
  }));
  const verdict = { ...made, policy: { ...made.policy, explanations } };
  await executor.execute(
    stream,
    transferCheckDecider,
    {
      type: 'CompleteTransferCheck',
      verdict,
      alerts: input.alerts,
      sanctions: FIXTURE_COVERAGE,
      ...(input.facts ? { facts: input.facts } : {}),
      at,
    },
    { commandId: `test-complete:${input.checkId}` },
  );
}
