import type { ValuedLeg } from '../../domain/kyt/composite.js';
import type { DecodedTransaction, TransferLeg } from '../../domain/kyt/decoded-transaction.js';
import { screeningNetworkOf } from '../../domain/kyt/chain-intel.js';
import type { PricingUsed } from '../../domain/kyt/transfer-result.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import { valueInMicros, type Prices } from '../../domain/ports/prices.port.js';

/**
 * USD value of every leg at the block's time. A token's decimals and symbol come from the chain when
 * the contract answers, else from the imported token lists; the token lists also name the symbol a
 * price table may price the token by (a curated listing, not what the contract says of itself; never
 * for a token a list marks as spam). A leg
 * without decimals or price stays unvalued (null), never guessed.
 */
export async function valueLegs(
  deps: { readonly intel: IntelIndex; readonly prices: Prices },
  tx: DecodedTransaction,
): Promise<{ legs: ValuedLeg[]; pricing: PricingUsed[] }> {
  const at = new Date(tx.blockTime);
  const network = screeningNetworkOf(tx.chain);
  const used = new Map<string, PricingUsed>();
  const legs = await Promise.all(
    tx.legs.map(async (leg): Promise<ValuedLeg> => {
      const listed = leg.token !== null && network ? deps.intel.lookup(leg.token, network).token : null;
      const enriched: TransferLeg = {
        ...leg,
        decimals: leg.decimals ?? listed?.decimals ?? null,
        symbol: leg.symbol ?? listed?.symbol ?? null,
      };
      const listedSymbol = listed && !listed.tags.includes('spam') ? listed.symbol : null;
      const quote = await deps.prices.quote({ network: tx.chain, token: leg.token, listedSymbol }, at);
      if (!quote || enriched.decimals === null) return { ...enriched, usdMicros: null };
      used.set(`${quote.source}|${quote.asOf}`, { source: quote.source, asOf: quote.asOf });
      return {
        ...enriched,
        symbol: enriched.symbol ?? quote.symbol,
        usdMicros: valueInMicros(BigInt(leg.amount), enriched.decimals, quote),
      };
    }),
  );
  return { legs, pricing: [...used.values()].sort((a, b) => (a.source + a.asOf < b.source + b.asOf ? -1 : 1)) };
}
