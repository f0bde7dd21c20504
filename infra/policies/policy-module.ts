import { policyBookDecider } from '../../domain/policies/policy-book.decider.js';
import { policyBookStream, type PolicyBookEvent } from '../../domain/policies/policy-book.events.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { PolicyAppServices } from '../../read-api/routes/policies-services.js';

/** What /v2/policies reads beside the commands. */
export function policyAppServices(store: Pick<EventStore, 'read'>): PolicyAppServices {
  return {
    async history(subgroupId, policyId) {
      const events: PolicyBookEvent[] = [];
      for await (const recorded of store.read(policyBookStream(subgroupId))) {
        const event = policyBookDecider.parse(recorded);
        if (event && event.data.policyId === policyId) events.push(event);
      }
      return events;
    },
  };
}
