import { sha256, stringToBytes } from 'viem';

/** SHA-256 of a UTF-8 string as 64 lowercase hex digits. */
export type Sha256Hex = (text: string) => string;

/** viem's SHA-256 (@noble's, in JavaScript): runs anywhere, so the domain needs nothing installed to hash. */
const javascriptSha256Hex: Sha256Hex = (text) => sha256(stringToBytes(text)).slice(2);

let implementation: Sha256Hex = javascriptSha256Hex;

/** SHA-256 of a UTF-8 string as 64 lowercase hex digits. */
export const sha256Hex = (text: string): string => implementation(text);

/** Strings whose UTF-8 bytes a native hash must agree on with the JavaScript one (a lone surrogate is U+FFFD in both). */
const AGREEMENT_SAMPLES = ['', 'abc', '{"address":"0xabc","network":"ETH"}', 'é€😀', '\ud800 lone'];

/**
 * Hashes with `native` from now on: the same digests, cheaper. A screen hashes three times on the thread
 * that answers (its API key, its receipt's input, that input again when its charge keeps the short
 * receipt); viem's JavaScript SHA-256 cost about 20 µs of CPU per call there, node:crypto's about 1
 * (infra/system/native-sha256.ts; docs/benchmarks.md#light-screen-benchscreen). Refused unless it gives
 * the JavaScript hash's digests, so a receipt's input hash and a stored key's hash cannot change.
 */
export function useNativeSha256Hex(native: Sha256Hex): void {
  const disagreement = AGREEMENT_SAMPLES.find((sample) => native(sample) !== javascriptSha256Hex(sample));
  if (disagreement !== undefined) throw new Error(`the native SHA-256 disagrees with viem's on ${JSON.stringify(disagreement)}`);
  implementation = native;
}
