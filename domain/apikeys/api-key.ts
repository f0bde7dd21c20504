import { sha256Hex } from '../shared/hash.js';

/**
 * API keys: 48 characters, the fixed prefix `svc_` then 44 base62 characters (about 262 bits of
 * randomness). Only the SHA-256 hash and the first four characters after the prefix are stored.
 */
export const API_KEY_PREFIX = 'svc_';
export const API_KEY_LENGTH = 48;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY = /^svc_[0-9A-Za-z]{44}$/;

/** Builds a key from random bytes; bytes ≥ 248 are skipped so every character is equally likely. */
export function apiKeyFromRandom(nextBytes: (n: number) => Uint8Array): string {
  let body = '';
  while (body.length < API_KEY_LENGTH - API_KEY_PREFIX.length) {
    for (const byte of nextBytes(64)) {
      if (byte < 248 && body.length < API_KEY_LENGTH - API_KEY_PREFIX.length) body += ALPHABET[byte % 62];
    }
  }
  return API_KEY_PREFIX + body;
}

export const isWellFormedApiKey = (key: string): boolean => BODY.test(key);

export const hashApiKey = (key: string): string => sha256Hex(key);

/** The four characters shown to identify a key in lists: `svc_AbC1…`. */
export const apiKeyPrefix = (key: string): string => key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + 4);
