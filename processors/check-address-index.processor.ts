import { eventRegistry } from '../domain/events/registry.js';
import { TRANSFER_STREAM_FAMILY } from '../domain/kyt/transfer-check.events.js';
import type { TransferVerdict } from '../domain/kyt/transfer-verdict.js';
import type { IndexSpec, ReadStore } from '../domain/ports/read-store.port.js';
import { normalizeAddress } from '../domain/shared/address.js';
import { positionOf } from './event-position.js';
import type { Processor } from './processor.js';
import { topicOfFamily } from './topics.js';

/**
 * Which past transfer checks an address took part in: one document per (address, check), for each sender
 * of a completed check and each address on its senders' exposure paths (the hops), indexed by (address,
 * checked_at). Retroactive exposure looks up the addresses an intelligence change touched, so its cost
 * follows those addresses, not the number of checks. A projection writes one document per event; this
 * writes several, each guarded by the event's position (a redelivered event changes nothing).
 */
export interface CheckAddressDoc extends Record<string, unknown> {
  id: string;
  address: string;
  check_id: string;
  checked_at: string;
}

export const CHECK_ADDRESSES = 'check_addresses';
const INDEXES: readonly IndexSpec[] = [['address', 'checked_at']];

/** The senders of a completed check and the addresses on their recorded exposure paths. */
export function addressesOfCheck(verdict: TransferVerdict): Set<string> {
  const addresses = new Set<string>();
  for (const sender of verdict.composite.senders) {
    addresses.add(normalizeAddress(sender.address));
    for (const category of sender.indirect)
      for (const path of category.paths) for (const hop of path.addresses) addresses.add(normalizeAddress(hop));
  }
  return addresses;
}

export function checkAddressIndexProcessor(deps: { readStore: ReadStore }): Processor<unknown> {
  const docs = () => deps.readStore.collection<CheckAddressDoc>(CHECK_ADDRESSES, INDEXES);
  return {
    name: 'check-address-index',
    topics: [topicOfFamily(TRANSFER_STREAM_FAMILY)],
    async handle(batch) {
      for (const event of batch) {
        if (event.type !== 'TransferCheckCompleted') continue;
        const position = positionOf(event);
        if (position === null) continue;
        const { checkId, verdict } = eventRegistry.dataOf('TransferCheckCompleted', event);
        const checkedAt = verdict.checkedAt;
        for (const address of addressesOfCheck(verdict)) {
          const doc: CheckAddressDoc = { id: `${address}|${checkId}`, address, check_id: checkId, checked_at: checkedAt };
          await docs().apply(doc.id, position, (current) => current ?? doc);
        }
      }
    },
  };
}

/**
 * The checks completed at or after `since` that any of `addresses` took part in (as sender or hop). The
 * cost is the smaller of the two sides: one indexed lookup per touched address, or, when a change touches
 * more addresses than the window holds entries (a first import of a large list), one walk of the window.
 */
export function checksOfAddresses(readStore: ReadStore) {
  const docs = readStore.collection<CheckAddressDoc>(CHECK_ADDRESSES, INDEXES);
  return async (addresses: ReadonlySet<string>, since: string): Promise<Set<string>> => {
    const window = { since: { field: 'checked_at', value: since } };
    const checkIds = new Set<string>();
    if (addresses.size === 0) return checkIds;
    // At most as many entries of the window as there are addresses are read to choose (never a count of the
    // whole window, which walks every entry when no index is led by checked_at): fewer means they are all of it.
    const some = await docs.find({ ...window, limit: addresses.size });
    if (some.length < addresses.size) {
      for (const doc of some) if (addresses.has(doc.address)) checkIds.add(doc.check_id);
      return checkIds;
    }
    for (const address of addresses) for (const doc of await docs.find({ ...window, where: { address } })) checkIds.add(doc.check_id);
    return checkIds;
  };
}

/** Whether the index holds any check completed at or after `since`. */
export function anyCheckSince(readStore: ReadStore) {
  const docs = readStore.collection<CheckAddressDoc>(CHECK_ADDRESSES, INDEXES);
  return async (since: string): Promise<boolean> =>
    (await docs.find({ since: { field: 'checked_at', value: since }, limit: 1 })).length > 0;
}
