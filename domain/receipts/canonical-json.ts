import { fail } from '../shared/errors.js';
import { sha256Hex } from '../shared/hash.js';

/** A string holding a UTF-16 surrogate that is not half of a pair (in `u` mode a pair is one code point). */
const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /\p{Cs}/u;

const refuse = (why: string) => fail('internal_error', `a value with no canonical JSON form: ${why}`);

function stringOf(text: string): string {
  if (SURROGATE.test(text) && LONE_SURROGATE.test(text)) throw refuse('a lone surrogate');
  return JSON.stringify(text);
}

function arrayOf(values: readonly unknown[], seen: Set<object>): string {
  let out = '[';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += encode(values[i], seen, 'null');
  }
  return `${out}]`;
}

function objectOf(value: Readonly<Record<string, unknown>>, seen: Set<object>): string {
  let out = '{';
  // Array.prototype.sort's default order is by UTF-16 code units, RFC 8785's order for names.
  for (const key of Object.keys(value).sort()) {
    const encoded = encode(value[key], seen, undefined);
    if (encoded === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${stringOf(key)}:${encoded}`;
  }
  return `${out}}`;
}

/** `absent` is what a value with no JSON form becomes where it stands: skipped in an object, null in an array. */
function encode(value: unknown, seen: Set<object>, absent: string | undefined): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringOf(value);
    case 'number':
      if (!Number.isFinite(value)) throw refuse(String(value));
      return JSON.stringify(value); // ECMAScript's shortest form, which RFC 8785 adopts
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return absent; // undefined, a function, a symbol (a bigint too: JSON has no form for it)
  }
  if (value === null) return 'null';
  if (seen.has(value)) throw refuse('a circular reference');
  seen.add(value);
  const json = (value as { toJSON?: unknown }).toJSON;
  const text =
    typeof json === 'function'
      ? encode((json as () => unknown).call(value), seen, absent)
      : Array.isArray(value)
        ? arrayOf(value, seen)
        : objectOf(value as Record<string, unknown>, seen);
  seen.delete(value);
  return text;
}

/**
 * RFC 8785 (JSON Canonicalization Scheme): keys sorted by UTF-16 code units, no whitespace, numbers in
 * ECMAScript's shortest form. The same verdict always encodes to the same bytes, so its hash and its
 * signature do not depend on field order. The `canonicalize` package's encoding, byte for byte (its own
 * tests hold it to that), in one string built as it walks: the package's cost a screen about a quarter of
 * its receipt's signature on the answering thread (docs/benchmarks.md#light-screen-benchscreen).
 */
export function canonicalJson(value: unknown): string {
  const text = encode(value, new Set(), undefined);
  if (text === undefined) throw fail('internal_error', 'a value with no JSON form cannot be canonicalized');
  return text;
}

/** The hash a receipt carries of a request's input (its address and network, its chain and tx hash, …). */
export const inputHashOf = (input: Readonly<Record<string, unknown>>): string => sha256Hex(canonicalJson(input));
