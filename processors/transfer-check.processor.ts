import { runTransferCheck } from '../commands/kyt/run-transfer-check.js';
import type { TransferCheckDeps } from '../commands/kyt/transfer-check-deps.js';
import { TRANSFER_STREAM_FAMILY } from '../domain/kyt/transfer-check.events.js';
import { asConsequenceOf } from './event-scope.js';
import type { Processor } from './processor.js';
import { topicOfFamily } from './topics.js';

/**
 * Runs the transfer check pipeline for every requested check (topic `events.transfer`). Checks of a
 * batch run side by side: each is its own stream, and one slow RPC call must not hold back the rest.
 * Redelivery is harmless: a check that already has an outcome is skipped.
 */
export function transferCheckProcessor(deps: TransferCheckDeps): Processor<unknown> {
  return {
    name: 'transfer-check',
    topics: [topicOfFamily(TRANSFER_STREAM_FAMILY)],
    async handle(batch) {
      const requested = batch.filter((event) => event.type === 'TransferCheckRequested');
      await Promise.all(requested.map((event) => asConsequenceOf(event, () => runTransferCheck(deps, (event.data as { checkId: string }).checkId))));
    },
  };
}
