import { bytesToHex } from 'viem';
import { sha256Hex } from '../shared/hash.js';

/**
 * A dashboard session is a random 256-bit token in an HttpOnly cookie. The server stores only its
 * SHA-256 (the session id) and derives the CSRF token from it, so the CSRF token needs no storage and
 * a page of another origin, which cannot read the cookie, cannot compute it.
 */
export const SESSION_TOKEN = /^[0-9a-f]{64}$/;

export const sessionTokenFromBytes = (bytes: Uint8Array): string => bytesToHex(bytes).slice(2);

export const sessionIdOf = (token: string): string => sha256Hex(`session:${token}`);

export const csrfTokenOf = (token: string): string => sha256Hex(`csrf:${token}`);
