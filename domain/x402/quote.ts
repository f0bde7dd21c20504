import type { Micros } from '../shared/money.js';
import type { X402Terms } from './x402-networks.js';
import { X402_VERSION, type PaymentRequired, type PaymentRequirements } from './x402-wire.js';

/** A price in the asset's base units: USDC has 6 decimals, so micro-USD are base units one to one. */
export function priceInBaseUnits(priceMicros: Micros): bigint {
  return BigInt(priceMicros);
}

/** The one way this deployment accepts payment for a price: scheme `exact`, its network, asset and wallet. */
export function requirementFor(terms: X402Terms, priceMicros: Micros): PaymentRequirements {
  return {
    scheme: 'exact',
    network: terms.network.caip2,
    asset: terms.network.asset,
    amount: priceInBaseUnits(priceMicros).toString(),
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: { name: terms.network.eip712.name, version: terms.network.eip712.version },
  };
}

/** The v2 quote of a 402 (`payment-required` header): built afresh for every 402. */
export function quoteFor(
  terms: X402Terms,
  input: { priceMicros: Micros; url: string; description: string; error: string },
): PaymentRequired {
  return {
    x402Version: X402_VERSION,
    error: input.error,
    resource: { url: input.url, description: input.description, mimeType: 'application/json' },
    accepts: [requirementFor(terms, input.priceMicros)],
  };
}
