import type { PolicyBookEvent } from '../../domain/policies/policy-book.events.js';

/** What /v2/policies reads besides the commands: a policy's history from its subgroup's stream. */
export interface PolicyAppServices {
  history(subgroupId: string, policyId: string): Promise<readonly PolicyBookEvent[]>;
}
