import type { TransferBatch, TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';
import type { Processor } from '../processor.js';
import { graphMessageOf, TRANSFERS_TOPIC } from './transfer-messages.js';

/**
 * The graph pipeline's folding end: folds the transfers the ingesters and importers publish into the
 * transfer graph store, and undoes reverted blocks. A batch of messages is folded in one store write (so
 * one LMDB transaction, or one SQL transaction), a revert in its own, in the order they came; the store is
 * idempotent by position, so a batch handed over again after a crash folds nothing twice.
 */

export interface GraphFoldContext {
  readonly graph: TransferGraphStore;
}

/**
 * Messages (of up to 1,000 transfers) folded in one store write, at most. A write transaction rewrites every
 * B-tree page it dirties, and on a graph of millions of pages nearly every transfer dirties pages of its
 * own: four times the bus's default of 100 writes the same pages once for four times the transfers
 * (docs/benchmarks.md#graph-exposure-benchgraph: 754 B written per transfer instead of 3,657 at 2 million).
 */
export const FOLD_MESSAGES = 400;

/** `name` is the consumer group: one shared by every folding process when they share one graph store. */
export function graphFoldProcessor(name = 'graph-fold'): Processor<GraphFoldContext> {
  return {
    name,
    topics: [TRANSFERS_TOPIC],
    maxBatchSize: FOLD_MESSAGES,
    async handle(events, { graph }) {
      let pending: TransferBatch[] = [];
      const flush = async () => {
        if (pending.length > 0) await graph.fold(pending);
        pending = [];
      };
      for (const event of events) {
        const message = graphMessageOf(event.type, event.data);
        if (message.type === 'TransfersRead') {
          pending.push(message.batch);
          continue;
        }
        await flush();
        await graph.revert(message.network, message.fromBlock);
      }
      await flush();
    },
  };
}
