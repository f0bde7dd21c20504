import { openAlertCasesOf, openRetroactiveCasesOf } from '../commands/alert-cases.commands.js';
import type { CommandDeps } from '../commands/command-deps.js';
import { eventRegistry } from '../domain/events/registry.js';
import { TRANSFER_STREAM_FAMILY } from '../domain/kyt/transfer-check.events.js';
import { asConsequenceOf } from './event-scope.js';
import type { Processor } from './processor.js';
import { topicOfFamily } from './topics.js';

/**
 * Opens a case for every alert of each completed transfer check (topic `events.transfer`), and for every
 * alert a re-evaluation raised later (retroactive exposure, marked as such). Redelivery
 * is harmless: case ids derive from the check and the alert's position, and an open case decides nothing.
 */
export function alertCaseProcessor(deps: CommandDeps): Processor<unknown> {
  return {
    name: 'alert-cases',
    topics: [topicOfFamily(TRANSFER_STREAM_FAMILY)],
    async handle(batch) {
      for (const event of batch) {
        if (event.type === 'TransferCheckCompleted')
          await asConsequenceOf(event, () => openAlertCasesOf(deps, eventRegistry.dataOf('TransferCheckCompleted', event).checkId));
        else if (event.type === 'TransferCheckReevaluated')
          await asConsequenceOf(event, () => openRetroactiveCasesOf(deps, eventRegistry.dataOf('TransferCheckReevaluated', event)));
      }
    },
  };
}
