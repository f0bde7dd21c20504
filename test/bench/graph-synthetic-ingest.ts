import type { MessageBus } from '../../domain/ports/message-bus.port.js';
import { chainPosition, type GraphTransfer } from '../../domain/ports/transfer-graph.port.js';
import { MAX_TRANSFERS_PER_MESSAGE, TRANSFERS_TOPIC, transfersReadMessages } from '../../processors/graph/transfer-messages.js';
import { syntheticAddress, type SyntheticSource } from '../synthetic/synthetic-graph.js';
import { FOLD_MESSAGES } from '../../processors/graph/graph-fold.processor.js';

/** Transfers per synthetic block: about an Ethereum block's worth. */
const PER_BLOCK = 200;
/**
 * Messages published in one call, and the most the folder may lag behind (a bounded bus backlog, two of the
 * folder's batches: one being folded while the next fills, as behind a backfill or a chain catching up).
 */
const PUBLISH_GROUP = 20;
const MAX_LAG_MESSAGES = 2 * FOLD_MESSAGES;

/**
 * Publishes a synthetic graph to the graph pipeline as an importer would (topic chain.transfers, one key),
 * each transfer at a chain position of its own (200 per block) with a transaction hash, and waits while
 * the folder lags more than MAX_LAG_MESSAGES behind. Resolves once everything is published.
 */
export async function publishSynthetic(
  bus: MessageBus,
  source: SyntheticSource,
  onProgress: (published: number) => void = () => undefined,
): Promise<void> {
  let index = 0;
  for (;;) {
    const messages = [];
    for (let m = 0; m < PUBLISH_GROUP; m++) {
      const chunk = source.next(MAX_TRANSFERS_PER_MESSAGE);
      if (chunk.from.length === 0) break;
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
      const batch = {
        network: 'ETH',
        dataset: 'synthetic',
        caveat: 'synthetic graph (benchmark)',
        positions: 'blocks',
        finalThrough: null,
      } as const;
      messages.push(...transfersReadMessages({ ...batch, transfers }, 'ETH:synthetic'));
    }
    if (messages.length === 0) return;
    await bus.publish(TRANSFERS_TOPIC, messages);
    onProgress(index);
    while ((await bus.lag('graph-fold', [TRANSFERS_TOPIC])).reduce((n, l) => n + l.messages, 0) > MAX_LAG_MESSAGES)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
