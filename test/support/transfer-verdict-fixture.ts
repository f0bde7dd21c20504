import type { PolicyAlert } from '../../domain/kyt/policy-engine.js';
import { TRANSFER_VERDICT_VERSION, type TransferVerdict } from '../../domain/kyt/transfer-verdict.js';
import { actionOf } from '../../domain/shared/verdict-vocabulary.js';
import { worstLevel } from '../../domain/kyt/alert-level.js';

/**
 * A transfer check's domain verdict for tests that need one without running the pipeline: one sender, one
 * native leg, the standard policy, the given alerts (the worst level and the action follow from them).
 */
export function transferVerdictFixture(input: {
  checkId: string;
  txHash?: string;
  alerts?: readonly PolicyAlert[];
  checkedAt?: string;
}): TransferVerdict {
  const alerts = input.alerts ?? [];
  const worst = worstLevel(alerts.map((a) => a.riskLevel));
  const sender = '0x00000000000000000000000000000000000000a1';
  const to = '0x00000000000000000000000000000000000000b2';
  return {
    version: TRANSFER_VERDICT_VERSION,
    checkId: input.checkId,
    chain: 'ETH',
    txHash: input.txHash ?? `0x${'ab'.repeat(32)}`,
    transaction: { blockNumber: 1, blockTime: '2026-11-20T09:59:48.000Z', success: true, signer: sender, to },
    composite: {
      totalUsdMicros: 3_300_000_000,
      pricing: 'full',
      weighting: 'usd',
      prices: [{ source: 'snapshot-2025-01', asOf: '2025-01-01' }],
      riskScore: 0,
      riskLevel: 'none',
      unknownShare: 1,
      legsTotal: 1,
      legs: [
        {
          kind: 'native',
          token: null,
          symbol: 'ETH',
          decimals: 18,
          from: sender,
          to,
          amount: '1000000000000000000',
          usdMicros: 3_300_000_000,
          logIndex: null,
        },
      ],
      sendersTotal: 1,
      senders: [
        {
          address: sender,
          label: null,
          usdMicros: 3_300_000_000,
          weight: 1,
          legs: 1,
          dataAvailable: false,
          riskScore: 0,
          riskLevel: 'none',
          direct: [],
          indirect: [],
          graph: 'not_available',
        },
      ],
      categories: [],
      patterns: [],
    },
    policy: {
      id: 'standard',
      name: 'standard',
      version: '1',
      taxonomyVersion: 'v1',
      worstLevel: worst,
      recommendedAction: actionOf(worst),
      alerts: alerts.map((a) => ({ ...a })),
      explanations: [],
    },
    checkedAt: input.checkedAt ?? '2026-11-20T10:00:00.500Z',
  };
}
