// Typed-array walks whose indexes are bounded by construction (CSR offsets, columns grown before a write): a
// check per access would cost the hot loop, so `!` is allowed here and nowhere else outside tests.
/* eslint-disable @typescript-eslint/no-non-null-assertion */
import type {
  AddressActivity,
  FlowDirection,
  FlowPage,
  IndexCoverage,
  TransferDataKind,
  TransferIndex,
} from '../../domain/ports/chain-data.port.js';
import { EMPTY_TOTALS } from '../../domain/ports/chain-data.port.js';
import { normalizeAddress } from '../../domain/shared/address.js';
import type { Network } from '../../domain/shared/network.js';
import { CompactTransferGraph, TransferGraphBuilder, type TransferInput } from './transfer-graph.js';

/**
 * The embedded transfer index: one compact graph per network, fed by data sets (the shipped transfer
 * samples, the block ingester, synthetic graphs in benchmarks). The CSR layout is rebuilt lazily on the
 * first read after a change, so a burst of ingested blocks costs one rebuild.
 */

interface DatasetStats {
  name: string;
  caveat: string | null;
  kind: TransferDataKind;
  version: string | null;
  transfers: number;
  from: number;
  to: number;
  upToBlock: number | null;
}

/** A data set as its feeder describes it; `upToBlock` is the last block a batch of ingested blocks reached. */
export interface DatasetInput {
  readonly name: string;
  readonly caveat?: string | null;
  readonly kind?: TransferDataKind;
  readonly version?: string | null;
  readonly upToBlock?: number;
}

interface NetworkGraph {
  readonly builder: TransferGraphBuilder;
  graph: CompactTransferGraph | null;
  readonly datasets: Map<string, DatasetStats>;
}

export interface EmbeddedTransferIndex extends TransferIndex {
  /** Adds transfers of a data set; `caveat` says what a reader must know about the data set's values. */
  add(network: Network, dataset: DatasetInput, transfers: Iterable<TransferInput>): void;
  /** The builder of a network, for generators that intern ids themselves (benchmarks). */
  builderOf(network: Network): TransferGraphBuilder;
  /** Transfers held per network. */
  size(network: Network): number;
}

export function createEmbeddedTransferIndex(): EmbeddedTransferIndex {
  const networks = new Map<Network, NetworkGraph>();

  const entry = (network: Network): NetworkGraph => {
    let found = networks.get(network);
    if (!found) networks.set(network, (found = { builder: new TransferGraphBuilder(), graph: null, datasets: new Map() }));
    return found;
  };

  const graphOf = (network: Network): CompactTransferGraph | null => {
    const found = networks.get(network);
    if (!found || found.builder.transfers === 0) return null;
    found.graph ??= found.builder.build();
    return found.graph;
  };

  return {
    add(network, dataset, transfers) {
      const target = entry(network);
      let stats = target.datasets.get(dataset.name);
      if (!stats) {
        stats = {
          name: dataset.name,
          caveat: dataset.caveat ?? null,
          kind: dataset.kind ?? 'synthetic',
          version: dataset.version ?? null,
          transfers: 0,
          from: Number.POSITIVE_INFINITY,
          to: Number.NEGATIVE_INFINITY,
          upToBlock: null,
        };
        target.datasets.set(dataset.name, stats);
      }
      if (dataset.upToBlock !== undefined) stats.upToBlock = Math.max(stats.upToBlock ?? dataset.upToBlock, dataset.upToBlock);
      if (dataset.version !== undefined) stats.version = dataset.version;
      for (const transfer of transfers) {
        target.builder.add({ ...transfer, from: normalizeAddress(transfer.from), to: normalizeAddress(transfer.to) });
        stats.transfers += 1;
        stats.from = Math.min(stats.from, transfer.at);
        stats.to = Math.max(stats.to, transfer.at);
      }
      target.graph = null;
    },

    builderOf(network) {
      const target = entry(network);
      target.graph = null;
      return target.builder;
    },

    size: (network) => networks.get(network)?.builder.transfers ?? 0,

    async activity(address, network): Promise<AddressActivity | null> {
      const graph = graphOf(network);
      const id = graph?.idOf(normalizeAddress(address));
      if (!graph || id === undefined) return null;
      const incoming = graph.totals(id, 'in');
      const outgoing = graph.totals(id, 'out');
      if (incoming.transfers + outgoing.transfers === 0) return null;
      return {
        incoming,
        outgoing,
        firstAt: new Date(graph.firstAt[id]!).toISOString(),
        lastAt: new Date(graph.lastAt[id]!).toISOString(),
      };
    },

    flows(address, network, direction, limit) {
      return pageOf(graphOf(network), normalizeAddress(address), direction, limit);
    },

    async coverage(network): Promise<IndexCoverage> {
      const datasets = [...(networks.get(network)?.datasets.values() ?? [])].map((d) => ({
        name: d.name,
        transfers: d.transfers,
        from: d.transfers > 0 ? new Date(d.from).toISOString() : null,
        to: d.transfers > 0 ? new Date(d.to).toISOString() : null,
        caveat: d.caveat,
        kind: d.kind,
        version: d.upToBlock === null ? d.version : `blocks up to ${d.upToBlock}`,
        asOf: d.transfers > 0 ? new Date(d.to).toISOString() : null,
        upToBlock: d.upToBlock,
      }));
      return { network, datasets };
    },
  };
}

const EMPTY_PAGE: FlowPage = {
  size: 0,
  totals: EMPTY_TOTALS,
  counterparty: () => '',
  usdMicros: () => 0,
  transfers: () => 0,
  estimated: () => false,
  sampleTx: () => null,
};

function pageOf(graph: CompactTransferGraph | null, address: string, direction: FlowDirection, limit: number): FlowPage {
  const id = graph?.idOf(address);
  if (!graph || id === undefined) return EMPTY_PAGE;
  const { start, end, order, counterparty } = graph.slice(id, direction);
  const { addresses, pairUsd, pairTransfers, pairEstimated } = graph;
  const pair = (row: number) => order[start + row]!;
  return {
    size: Math.max(0, Math.min(limit, end - start)),
    totals: graph.totals(id, direction),
    counterparty: (row) => addresses[counterparty[order[start + row]!]!]!,
    usdMicros: (row) => Math.round(pairUsd[order[start + row]!]!),
    transfers: (row) => pairTransfers[pair(row)]!,
    estimated: (row) => pairEstimated[pair(row)] === 1,
    sampleTx: (row) => graph.sampleTx(pair(row)),
  };
}
