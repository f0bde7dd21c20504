import canonicalize from 'canonicalize';
import { fail } from '../shared/errors.js';
import { sha256Hex } from '../shared/hash.js';

/**
 * RFC 8785 (JSON Canonicalization Scheme): keys sorted by UTF-16 code units, no whitespace, numbers in
 * ECMAScript's shortest form. The same verdict always encodes to the same bytes, so its hash and its
 * signature do not depend on field order.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw fail('internal_error', 'a value with no JSON form cannot be canonicalized');
  return text;
}

/** The hash a receipt carries of a request's input (its address and network, its chain and tx hash, …). */
export const inputHashOf = (input: Readonly<Record<string, unknown>>): string => sha256Hex(canonicalJson(input));
