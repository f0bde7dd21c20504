/** Secure randomness is a port: secrets (API keys, webhook secrets) are generated outside the domain. */
export interface Random {
  bytes(length: number): Uint8Array;
}
