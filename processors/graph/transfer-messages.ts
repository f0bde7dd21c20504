import { z } from 'zod';
import type { BusMessage } from '../../domain/ports/message-bus.port.js';
import { blockOfPosition, kindOfPosition, type GraphTransfer, type TransferBatch } from '../../domain/ports/transfer-graph.port.js';
import { SCREEN_NETWORKS, type Network } from '../../domain/shared/network.js';

/**
 * The graph pipeline's messages on topic `chain.transfers` (bus-only: chain data is public and re-readable,
 * not a fact of this service's own, so it does not go through the event log):
 * - TransfersRead: up to MAX_TRANSFERS_PER_MESSAGE transfers of a block range (or of a file's rows), columnar
 *   with an address table, so that a message stays far below Kafka's 1 MB default;
 * - BlocksReverted: a reorganisation, from a block on.
 * A network's ingester keys its messages by network, so a revert is folded after the blocks it undoes;
 * an importer keys by network and file, so that imports fold beside the live chain.
 */

export const TRANSFERS_TOPIC = 'chain.transfers';
export const TRANSFERS_READ = 'TransfersRead';
export const BLOCKS_REVERTED = 'BlocksReverted';
/** About 150 KB of JSON with hashes: well under Kafka's 1 MB message limit. */
export const MAX_TRANSFERS_PER_MESSAGE = 1000;

const network = z.enum(SCREEN_NETWORKS);

const transfersReadSchema = z
  .object({
    network,
    dataset: z.string().min(1),
    caveat: z.string().nullable(),
    positions: z.enum(['chain', 'blocks', 'rows']),
    finalThrough: z.number().int().nullable(),
    addresses: z.array(z.string().min(1)),
    from: z.array(z.number().int().nonnegative()),
    to: z.array(z.number().int().nonnegative()),
    usd: z.array(z.number().nonnegative().nullable()),
    at: z.array(z.number()),
    position: z.array(z.number().int().nonnegative()),
    estimated: z.array(z.union([z.literal(0), z.literal(1)])),
    tx: z.array(z.string().nullable()),
  })
  .refine((d) => [d.from, d.to, d.usd, d.at, d.estimated, d.tx].every((column) => column.length === d.position.length), {
    message: 'every column has one entry per transfer',
  });

const blocksRevertedSchema = z.object({ network, fromBlock: z.number().int().nonnegative() });

export type GraphMessage =
  | { readonly type: typeof TRANSFERS_READ; readonly batch: TransferBatch }
  | { readonly type: typeof BLOCKS_REVERTED; readonly network: Network; readonly fromBlock: number };

/**
 * The batch as messages of at most MAX_TRANSFERS_PER_MESSAGE transfers each. A batch of whole blocks stays
 * whole per (block, kind) in each message (so that the fold dedups it per unit); a unit of more transfers
 * than a message holds goes out in parts, as positions 'chain' (deduplicated per transfer).
 */
export function transfersReadMessages(batch: TransferBatch, key: string): BusMessage[] {
  return partsOf(batch).map((part) => message(key, TRANSFERS_READ, columnsOf(part)));
}

function partsOf(batch: TransferBatch): TransferBatch[] {
  const slices = (transfers: readonly GraphTransfer[], positions: TransferBatch['positions']): TransferBatch[] => {
    const parts: TransferBatch[] = [];
    for (let start = 0; start < transfers.length; start += MAX_TRANSFERS_PER_MESSAGE)
      parts.push({ ...batch, positions, transfers: transfers.slice(start, start + MAX_TRANSFERS_PER_MESSAGE) });
    return parts;
  };
  if (batch.positions !== 'blocks') return slices(batch.transfers, batch.positions);
  const units = new Map<number, GraphTransfer[]>();
  for (const t of batch.transfers) {
    const unit = blockOfPosition(t.position) * 2 + kindOfPosition(t.position);
    const found = units.get(unit);
    if (found) found.push(t);
    else units.set(unit, [t]);
  }
  const parts: TransferBatch[] = [];
  let packed: GraphTransfer[] = [];
  const flush = () => {
    if (packed.length > 0) parts.push({ ...batch, transfers: packed });
    packed = [];
  };
  for (const unit of units.values()) {
    if (unit.length > MAX_TRANSFERS_PER_MESSAGE) {
      parts.push(...slices(unit, 'chain'));
      continue;
    }
    if (packed.length + unit.length > MAX_TRANSFERS_PER_MESSAGE) flush();
    packed.push(...unit);
  }
  flush();
  return parts;
}

function columnsOf(part: TransferBatch): z.infer<typeof transfersReadSchema> {
  const ids = new Map<string, number>();
  const idOf = (address: string) => {
    let id = ids.get(address);
    if (id === undefined) ids.set(address, (id = ids.size));
    return id;
  };
  const { transfers } = part;
  const data: z.infer<typeof transfersReadSchema> = {
    network: part.network,
    dataset: part.dataset,
    caveat: part.caveat,
    positions: part.positions,
    finalThrough: part.finalThrough,
    addresses: [],
    from: transfers.map((t) => idOf(t.from)),
    to: transfers.map((t) => idOf(t.to)),
    usd: transfers.map((t) => t.usdMicros),
    at: transfers.map((t) => t.at),
    position: transfers.map((t) => t.position),
    estimated: transfers.map((t) => (t.estimated ? 1 : 0)),
    tx: transfers.map((t) => t.txHash),
  };
  data.addresses = [...ids.keys()];
  return data;
}

export const blocksRevertedMessage = (key: string, network: Network, fromBlock: number): BusMessage =>
  message(key, BLOCKS_REVERTED, { network, fromBlock });

function message(key: string, type: string, data: unknown): BusMessage {
  return { key, value: { type, data }, headers: { 'event-type': type, 'stream-id': key } };
}

/** A consumed message's content, validated (a malformed one throws, and the bus dead-letters it). */
export function graphMessageOf(type: string, data: unknown): GraphMessage {
  if (type === BLOCKS_REVERTED) return { type, ...blocksRevertedSchema.parse(data) };
  if (type !== TRANSFERS_READ) throw new Error(`${TRANSFERS_TOPIC} carries ${TRANSFERS_READ} and ${BLOCKS_REVERTED}, not ${type}`);
  const d = transfersReadSchema.parse(data);
  const address = (id: number | undefined) => {
    const found = id === undefined ? undefined : d.addresses[id];
    if (found === undefined) throw new Error(`${TRANSFERS_READ}: an address id past the table`);
    return found;
  };
  const transfers: GraphTransfer[] = d.position.map((position, i) => ({
    from: address(d.from[i]),
    to: address(d.to[i]),
    usdMicros: d.usd[i] ?? null,
    at: d.at[i] ?? Number.NaN,
    estimated: d.estimated[i] === 1,
    txHash: d.tx[i] ?? null,
    position,
  }));
  const { network: net, dataset, caveat, positions, finalThrough } = d;
  return { type, batch: { network: net, dataset, caveat, positions, finalThrough, transfers } };
}
