import type { Claim } from '../intel/intel.types.js';
import { normalizeAddress } from '../shared/address.js';

/**
 * The addresses whose claims differ between two versions of one source: added, removed, or any field of
 * any claim changed. Cost is proportional to the two versions' claims, never to the monitors.
 */
export function changedAddresses(previous: Iterable<Claim>, next: Iterable<Claim>): Set<string> {
  const before = fingerprints(previous);
  const after = fingerprints(next);
  const changed = new Set<string>();
  for (const [address, print] of after) if (before.get(address) !== print) changed.add(address);
  for (const address of before.keys()) if (!after.has(address)) changed.add(address);
  return changed;
}

/** Per address, its claims as one order-independent string. */
function fingerprints(claims: Iterable<Claim>): Map<string, string> {
  const byAddress = new Map<string, string[]>();
  for (const claim of claims) {
    const address = normalizeAddress(claim.address);
    const print = canonical(claim);
    const list = byAddress.get(address);
    if (list) list.push(print);
    else byAddress.set(address, [print]);
  }
  const joined = new Map<string, string>();
  for (const [address, prints] of byAddress) joined.set(address, prints.sort().join('\n'));
  return joined;
}

/** JSON with object keys sorted at every level, so equal claims print equally whatever their key order. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .filter((key) => record[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
    .join(',')}}`;
}
