import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeLabel } from '../../domain/exposure/node-label.js';
import type { TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import type { Network } from '../../domain/shared/network.js';
import { afterAll } from 'vitest';
import { openLmdbGraphStore } from '../../infra/chain/graph/lmdb-graph-store.js';

/** Small hand-written transfer graphs for tests: `edge('a', 'b', 600)` is a transfer of 600 USD from a to b. */
export interface FixtureTransfer {
  readonly from: string;
  readonly to: string;
  readonly usd: number | null;
  readonly at?: string;
}

export const edge = (from: string, to: string, usd: number | null, at = '2026-01-01T00:00:00Z'): FixtureTransfer => ({ from, to, usd, at });

// The fixture graphs live in LMDB like the service's; each test file closes its stores and removes their
// directories when it ends (vitest evaluates this module once per file, so the hook is the file's).
const opened: { dir: string; graph: TransferGraphStore }[] = [];
afterAll(async () => {
  for (const { dir, graph } of opened.splice(0)) {
    await graph.close();
    await rm(dir, { recursive: true, force: true });
  }
});

/** A graph store holding `transfers` (one data set, rows in the given order); `superNodeBound` as the store's. */
export async function fixtureIndex(
  transfers: readonly FixtureTransfer[],
  network: Network = 'ETH',
  options: { superNodeBound?: number } = {},
): Promise<TransferGraphStore> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fixture-graph-'));
  const graph = await openLmdbGraphStore({ dir, ...options });
  opened.push({ dir, graph });
  await graph.fold([
    {
      network,
      dataset: 'fixture',
      caveat: null,
      positions: 'rows',
      finalThrough: null,
      transfers: transfers.map((t, position) => ({
        from: t.from,
        to: t.to,
        usdMicros: t.usd === null ? null : Math.round(t.usd * 1e6),
        at: Date.parse(t.at ?? '2026-01-01T00:00:00Z'),
        estimated: false,
        txHash: null,
        position,
      })),
    },
  ]);
  return graph;
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
