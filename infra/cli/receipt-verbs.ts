import { systemClock } from '../system/system-clock.js';
import type { VerbTable } from './verb.js';

/**
 * The receipts' key ring: `receipts keys` lists it, `receipts rotate-key` adds a key that signs from now
 * on. Run against a running service, the rotation happens inside it (its signer switches at once).
 */
export const RECEIPT_VERBS: VerbTable<'receipts'> = {
  async 'receipts keys'(services) {
    return { exitCode: 0, output: { keys: services.receipts.keys() } };
  },
  async 'receipts rotate-key'(services) {
    const rotated = await services.receipts.rotate(systemClock.now());
    return { exitCode: 0, output: { active: rotated.kid, retired: rotated.retired, keys: services.receipts.keys() } };
  },
};
