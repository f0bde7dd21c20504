import type { MessageBus } from '../../domain/ports/message-bus.port.js';
import { chainPosition, type GraphTransfer, type TransferBatch } from '../../domain/ports/transfer-graph.port.js';
import { MAX_TRANSFERS_PER_MESSAGE, TRANSFERS_TOPIC, transfersReadMessages } from '../../processors/graph/transfer-messages.js';
import { syntheticAddress, type SyntheticChunk, type SyntheticSource } from '../synthetic/synthetic-graph.js';
import { FOLD_MESSAGES } from '../../processors/graph/graph-fold.processor.js';

/** Transfers per synthetic block: about an Ethereum block's worth. */
export const PER_BLOCK = 200;
/**
 * Messages published in one call, and the most the folder may lag behind (a bounded bus backlog, two of the
 * folder's batches: one being folded while the next fills, as behind a backfill or a chain catching up).
 */
const PUBLISH_GROUP = 20;
const MAX_LAG_MESSAGES = 2 * FOLD_MESSAGES;

/** The synthetic graph's batch of `chunk`, whose first transfer is the graph's `index`th. */
export function syntheticBatch(chunk: SyntheticChunk, index: number): TransferBatch {
  const transfers: GraphTransfer[] = [];
  for (let k = 0; k < chunk.from.length; k++, index++) {
    transfers.push({
      from: syntheticAddress(chunk.from[k]!),
      to: syntheticAddress(chunk.to[k]!),
      usdMicros: chunk.usdMicros[k]!,
      at: chunk.at[k]!,
      estimated: false,
      txHash: `0x${index.toString(16).padStart(64, '0')}`,
      position: chainPosition(Math.floor(index / PER_BLOCK), 'log', index % PER_BLOCK),
    });
  }
  return {
    network: 'ETH',
    dataset: 'synthetic',
    caveat: 'synthetic graph (benchmark)',
    positions: 'blocks',
    finalThrough: null,
    transfers,
  };
}

/** The next `count` transfers of the source as batches of MAX_TRANSFERS_PER_MESSAGE (what a bulk load reads). */
export function* syntheticBatches(source: SyntheticSource, count: number, firstIndex = 0): Generator<TransferBatch> {
  for (let index = firstIndex; index < firstIndex + count;) {
    const chunk = source.next(Math.min(MAX_TRANSFERS_PER_MESSAGE, firstIndex + count - index));
    if (chunk.from.length === 0) return;
    yield syntheticBatch(chunk, index);
    index += chunk.from.length;
  }
}

/**
 * Publishes a synthetic graph to the graph pipeline as an importer would (topic chain.transfers, one key),
 * each transfer at a chain position of its own (200 per block) with a transaction hash, and waits while
 * the folder lags more than MAX_LAG_MESSAGES behind. Resolves once everything is published. `firstIndex`:
 * the source's transfers before it went elsewhere (a bulk load), so positions go on from there.
 */
export async function publishSynthetic(
  bus: MessageBus,
  source: SyntheticSource,
  onProgress: (published: number) => void = () => undefined,
  firstIndex = 0,
): Promise<void> {
  let index = firstIndex;
  for (;;) {
    const messages = [];
    for (let m = 0; m < PUBLISH_GROUP; m++) {
      const chunk = source.next(MAX_TRANSFERS_PER_MESSAGE);
      if (chunk.from.length === 0) break;
      messages.push(...transfersReadMessages(syntheticBatch(chunk, index), 'ETH:synthetic'));
      index += chunk.from.length;
    }
    if (messages.length === 0) return;
    await bus.publish(TRANSFERS_TOPIC, messages);
    onProgress(index - firstIndex);
    while ((await bus.lag('graph-fold', [TRANSFERS_TOPIC])).reduce((n, l) => n + l.messages, 0) > MAX_LAG_MESSAGES)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
