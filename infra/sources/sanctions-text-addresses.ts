import { present } from '../../domain/shared/present.js';
import { isTronAddress } from '../../domain/shared/address.js';

/**
 * The UK and EU lists have no field for digital currency addresses (unlike OFAC's "Digital Currency
 * Address - <asset>" feature): where they publish one, it sits in free text ("Other Information",
 * remarks, identification numbers), usually after the asset's ticker. This finds the 0x and TRON
 * addresses in such text, with the ticker just before each when there is one. A TRON-shaped word only
 * counts when its checksum holds, so a passport number or a name never becomes an address.
 */

export interface TextAddress {
  readonly raw: string;
  readonly asset: string | null;
}

const CANDIDATE = /\b(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})\b/g;
/** The last ticker-like word before an address: "ETH 0x…", "USDT (TRC20): T…", "Digital Currency Address - XBT …". */
const TICKER_BEFORE = /\b([A-Z][A-Z0-9]{1,5})\b[^A-Za-z0-9]{0,12}$/;
const NOT_TICKERS = new Set(['ID', 'NO', 'NR', 'TO', 'OF', 'AND', 'THE']);

export function addressesInText(text: string): TextAddress[] {
  const found: TextAddress[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const raw = present(match[1], 'the pattern matched, and the group is not optional');
    if (raw.startsWith('T') && !isTronAddress(raw)) continue;
    const before = text.slice(Math.max(0, match.index - 40), match.index);
    const ticker = TICKER_BEFORE.exec(before)?.[1] ?? null;
    found.push({ raw, asset: ticker !== null && !NOT_TICKERS.has(ticker) ? ticker : null });
  }
  return found;
}

/** 'dd/mm/yyyy' (the UK list's dates) as 'YYYY-MM-DD'; null when it is not such a date. */
export function ukDay(value: string | undefined): string | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(value?.trim() ?? '');
  if (!match) return null;
  const day = `${match[3]}-${present(match[2], 'the pattern matched, and the group is not optional').padStart(2, '0')}-${present(match[1], 'the pattern matched, and the group is not optional').padStart(2, '0')}`;
  return Number.isNaN(Date.parse(day)) ? null : day;
}
