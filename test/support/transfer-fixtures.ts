import type { NodeLabel } from '../../domain/exposure/node-label.js';
import type { Network } from '../../domain/shared/network.js';
import { createEmbeddedTransferIndex, type EmbeddedTransferIndex } from '../../infra/chain/embedded-transfer-index.js';

/** Small hand-written transfer graphs for tests: `edge('a', 'b', 600)` is a transfer of 600 USD from a to b. */
export interface FixtureTransfer {
  readonly from: string;
  readonly to: string;
  readonly usd: number | null;
  readonly at?: string;
}

export const edge = (from: string, to: string, usd: number | null, at = '2026-01-01T00:00:00Z'): FixtureTransfer => ({ from, to, usd, at });

export function fixtureIndex(transfers: readonly FixtureTransfer[], network: Network = 'ETH'): EmbeddedTransferIndex {
  const index = createEmbeddedTransferIndex();
  index.add(
    network,
    { name: 'fixture' },
    transfers.map((t) => ({
      from: t.from,
      to: t.to,
      usdMicros: t.usd === null ? null : Math.round(t.usd * 1e6),
      at: Date.parse(t.at ?? '2026-01-01T00:00:00Z'),
    })),
  );
  return index;
}

export const label = (category: string, severity: number, riskLevel: NodeLabel['riskLevel'], name: string | null = null): NodeLabel => ({
  category,
  severity,
  riskLevel,
  label: name,
  source: 'fixture_source',
  sources: ['fixture_source'],
  confidence: 90,
});

export const labelsOf =
  (labels: Readonly<Record<string, NodeLabel>>) =>
  (address: string): NodeLabel | null =>
    labels[address] ?? null;
