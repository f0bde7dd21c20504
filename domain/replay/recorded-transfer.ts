import type { PricingUsed } from '../kyt/transfer-result.js';
import type { ValuedLeg } from '../kyt/composite.js';
import type { DecodedTransaction } from '../kyt/decoded-transaction.js';
import type { PatternFinding } from '../kyt/transfer-patterns.js';
import type { Chain } from '../shared/network.js';
import { usdToMicros } from '../shared/money.js';

/**
 * What a completed transfer check's stored body recorded of the outside world: the decoded transaction
 * and its legs (the chain), their USD values (the prices then), the patterns found, the price rows and
 * the transfer data read. A replay recomputes the intelligence and the policy over these, never asking
 * the chain or a price feed again.
 */
export interface RecordedTransfer {
  readonly tx: DecodedTransaction;
  readonly legs: readonly ValuedLeg[];
  /** False when the body listed only the first legs of a larger transaction. */
  readonly legsComplete: boolean;
  readonly patterns: readonly PatternFinding[];
  readonly pricing: readonly PricingUsed[];
  readonly transferData: unknown;
  readonly policy: { readonly id: string; readonly version: string };
  readonly checkedAt: string;
}

interface LegRow {
  kind: 'native' | 'token';
  token: string | null;
  symbol: string | null;
  decimals: number | null;
  from: string;
  to: string;
  amount: string;
  usd_value: number | null;
  log_index: number | null;
}

interface Body {
  chain: Chain;
  tx_hash: string;
  transaction: { block_number: number; block_time: string; success: boolean; signer: string; to: string | null };
  composite_result: {
    legs_total: number;
    legs: LegRow[];
    prices?: { source: string; as_of: string }[];
    patterns?: { slug: string; address: string; detail: string }[];
  };
  policy_result: { policy_id: string; version: string };
  coverage?: { data_versions?: { transfer_data?: unknown } };
  checked_at: string;
}

const legOf = (row: LegRow): ValuedLeg => ({
  kind: row.kind,
  token: row.token,
  symbol: row.symbol,
  decimals: row.decimals,
  from: row.from,
  to: row.to,
  amount: row.amount,
  logIndex: row.log_index,
  usdMicros: row.usd_value === null ? null : usdToMicros(row.usd_value),
});

/** The recorded inputs of a stored body (its fields are read by name: the body is not typed in the event yet). */
export function recordedTransfer(result: Readonly<Record<string, unknown>>): RecordedTransfer {
  const body = result as unknown as Body;
  const composite = body.composite_result;
  const legs = composite.legs.map(legOf);
  const { transaction } = body;
  return {
    tx: {
      chain: body.chain,
      txHash: body.tx_hash,
      blockNumber: transaction.block_number,
      blockTime: transaction.block_time,
      success: transaction.success,
      signer: transaction.signer,
      to: transaction.to,
      legs,
    },
    legs,
    legsComplete: composite.legs_total === legs.length,
    patterns: (composite.patterns ?? []).map((p) => ({
      slug: p.slug,
      anchor: { address: p.address, label: null },
      share: 0,
      usdMicros: 0,
      detail: p.detail,
    })),
    pricing: (composite.prices ?? []).map((p) => ({ source: p.source, asOf: p.as_of })),
    transferData: body.coverage?.data_versions?.transfer_data ?? [],
    policy: { id: body.policy_result.policy_id, version: body.policy_result.version },
    checkedAt: body.checked_at,
  };
}

/** The addresses a transfer verdict is about: both ends of every leg, and every address on a recorded exposure path. */
export function transferAddresses(result: Readonly<Record<string, unknown>>): string[] {
  const composite = (result.composite_result ?? {}) as {
    senders?: { address: string; indirect_categories?: { paths?: { addresses?: string[] }[] }[] }[];
    legs?: { from: string; to: string }[];
  };
  const legs = (composite.legs ?? []).flatMap((leg) => [leg.from, leg.to]);
  const senders = (composite.senders ?? []).flatMap((sender) => [
    sender.address,
    ...(sender.indirect_categories ?? []).flatMap((c) => (c.paths ?? []).flatMap((path) => path.addresses ?? [])),
  ]);
  return [...new Set([...legs, ...senders])];
}
