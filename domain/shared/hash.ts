import { sha256, stringToBytes } from 'viem';

/** SHA-256 of a UTF-8 string as 64 lowercase hex digits. */
export const sha256Hex = (text: string): string => sha256(stringToBytes(text)).slice(2);
