import { present } from '../../domain/shared/present.js';
import type { AssetRef, PriceQuote, Prices } from '../../domain/ports/prices.port.js';
import { normalizeAddress } from '../../domain/shared/address.js';
import { usdToMicros } from '../../domain/shared/money.js';
import { LISTED_SYMBOL_LEVELS, SNAPSHOT_ASSETS, SNAPSHOT_VERSION, type SnapshotAsset } from './price-snapshot.js';

/**
 * Prices from the embedded snapshot table, plus operator pins (SVC_PRICE_PINS) for assets the table does
 * not know, such as a token of a private deployment. A pin wins over the table. Tokens the imported
 * token lists name are priced by their listed symbol when the table has it (LISTED_SYMBOL_LEVELS).
 * Unknown assets have no price: the caller counts such a transfer as unpriced, it never guesses.
 */

export interface PricePin {
  readonly network: SnapshotAsset['network'];
  readonly token: string | null;
  readonly symbol: string;
  readonly usd: number;
}

const keyOf = (asset: AssetRef): string => `${asset.network}|${asset.token === null ? 'native' : normalizeAddress(asset.token)}`;

/** A token the imported token lists name, priced by the symbol they give it (when the table has that symbol). */
function listedToken(asset: AssetRef): { symbol: string; source: string; levels: readonly (readonly [string, number])[] } | null {
  const symbol = asset.token !== null && asset.listedSymbol ? asset.listedSymbol.toUpperCase() : null;
  const levels =
    symbol && Object.hasOwn(LISTED_SYMBOL_LEVELS, symbol)
      ? present(LISTED_SYMBOL_LEVELS[symbol], 'Object.hasOwn checked the symbol just before')
      : null;
  return symbol && levels ? { symbol, source: SNAPSHOT_VERSION, levels } : null;
}

export function createSnapshotPrices(pins: readonly PricePin[] = []): Prices {
  const table = new Map<string, { symbol: string; source: string; levels: readonly (readonly [string, number])[] }>();
  for (const asset of SNAPSHOT_ASSETS) table.set(keyOf(asset), { symbol: asset.symbol, source: SNAPSHOT_VERSION, levels: asset.levels });
  for (const pin of pins) table.set(keyOf(pin), { symbol: pin.symbol, source: 'operator-pin', levels: [['1970-01-01', pin.usd]] });

  return {
    async quote(asset, at): Promise<PriceQuote | null> {
      const found = table.get(keyOf(asset)) ?? listedToken(asset);
      if (!found) return null;
      const day = at.toISOString().slice(0, 10);
      let row = present(found.levels[0], 'every price row has at least one level');
      for (const level of found.levels) if (level[0] <= day) row = level;
      return { symbol: found.symbol, usdMicrosPerUnit: usdToMicros(row[1]), asOf: row[0], source: found.source };
    },
  };
}
