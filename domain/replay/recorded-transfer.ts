import type { TransferDataVersion } from '../coverage/data-versions.js';
import type { ValuedLeg } from '../kyt/composite.js';
import type { DecodedTransaction } from '../kyt/decoded-transaction.js';
import type { PricingUsed } from '../kyt/transfer-result.js';
import type { PatternFinding } from '../kyt/transfer-patterns.js';
import type { TransferVerdict } from '../kyt/transfer-verdict.js';

/**
 * What a completed transfer check's verdict recorded of the outside world: the decoded transaction and its
 * legs (the chain), their USD values (the prices then), the patterns found, the price rows and the
 * transfer data read. A replay recomputes the intelligence and the policy over these, never asking the
 * chain or a price feed again.
 */
export interface RecordedTransfer {
  readonly tx: DecodedTransaction;
  readonly legs: readonly ValuedLeg[];
  /** False when the verdict listed only the first legs of a larger transaction. */
  readonly legsComplete: boolean;
  readonly patterns: readonly PatternFinding[];
  readonly pricing: readonly PricingUsed[];
  readonly transferData: readonly TransferDataVersion[];
  readonly policy: { readonly id: string; readonly version: string };
  readonly checkedAt: string;
}

export function recordedTransfer(verdict: TransferVerdict): RecordedTransfer {
  const { composite, transaction } = verdict;
  const legs: ValuedLeg[] = composite.legs.map((leg) => ({ ...leg }));
  return {
    tx: {
      chain: verdict.chain,
      txHash: verdict.txHash,
      blockNumber: transaction.blockNumber,
      blockTime: transaction.blockTime,
      success: transaction.success,
      signer: transaction.signer,
      to: transaction.to,
      legs,
    },
    legs,
    legsComplete: composite.legsTotal === legs.length,
    patterns: composite.patterns.map((p) => ({
      slug: p.slug,
      anchor: { address: p.address, label: null },
      share: 0,
      usdMicros: 0,
      detail: p.detail,
    })),
    pricing: composite.prices.map((p) => ({ source: p.source, asOf: p.asOf })),
    transferData: verdict.coverage?.transferData ?? [],
    // A check completed before policies had ids applied the standard policy.
    policy: { id: verdict.policy.id ?? 'standard', version: verdict.policy.version },
    checkedAt: verdict.checkedAt,
  };
}

/** The addresses a transfer verdict is about: both ends of every leg, and every address on a recorded exposure path. */
export function transferAddresses(verdict: TransferVerdict): string[] {
  const { legs, senders } = verdict.composite;
  const ends = legs.flatMap((leg) => [leg.from, leg.to]);
  const traced = senders.flatMap((sender) => [
    sender.address,
    ...sender.indirect.flatMap((c) => c.paths.flatMap((path) => path.addresses)),
  ]);
  return [...new Set([...ends, ...traced])];
}

const basisPoints = (share: number): number => Math.round(share * 10_000);

/**
 * A transfer verdict as a replay compares it: shares at the precision a verdict states them (hundredths of
 * a percent, as a check stored before verdicts were domain facts recorded them), so the same computation
 * is identical whether the verdict was stored then or now.
 */
export function comparableTransferVerdict(verdict: TransferVerdict): unknown {
  const { composite } = verdict;
  const path = <P extends { share: number }>(p: P) => ({ ...p, share: basisPoints(p.share) });
  const categoryShare = (c: { share: number; usdMicros: number } | null) => (c ? { ...c, share: basisPoints(c.share) } : null);
  return {
    ...verdict,
    composite: {
      ...composite,
      unknownShare: basisPoints(composite.unknownShare),
      senders: composite.senders.map((s) => ({
        ...s,
        weight: basisPoints(s.weight),
        indirect: s.indirect.map((c) => ({ ...c, share: basisPoints(c.share), paths: c.paths.map(path) })),
      })),
      categories: composite.categories.map((c) => ({ ...c, direct: categoryShare(c.direct), indirect: categoryShare(c.indirect) })),
    },
  };
}
