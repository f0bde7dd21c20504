import { present } from '../../domain/shared/present.js';
import { ETHEREUM_LISTS_RED_FLAGS, TOKEN_LISTING } from '../../domain/intel/native-tags.js';
import type { Network } from '../../domain/shared/network.js';
import { isRecord, parseJsonFile, stringField } from './json-file.js';
import { malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';

/**
 * ethereum-lists/tokens: one JSON file per token under `tokens/<chain>/<address>.json`, with
 * `{symbol, name, address, decimals, type, logo: {src}, red_flags?, deprecation?}`. A token is a
 * contract on its own chain only.
 */

const CHAINS: Readonly<Record<string, Network>> = { eth: 'ETH', bsc: 'BSC' };
/** A red flag is the list maintainers' warning, short of proof. */
const RED_FLAG_CONFIDENCE = 80;

export function parseEthereumListsToken(text: string, file: string): ParsedFile {
  const folder = file.split('/').at(-2) ?? '';
  const out = new ParsedFileBuilder(file);
  const token = parseJsonFile(text, file);
  if (!isRecord(token) || typeof token.address !== 'string') throw malformed(file, 'record 1', 'expected a token with an address');
  out.records = 1;
  const chain = CHAINS[folder];
  const located = out.locate(token.address, 'record 1');
  if (!located) return out.finish();
  if (!chain || located.family !== 'evm') {
    out.otherLedgers += 1;
    return out.finish();
  }
  const name = stringField(token, 'name') ?? null;
  const symbol = stringField(token, 'symbol') ?? null;
  const decimals = typeof token.decimals === 'number' && Number.isInteger(token.decimals) && token.decimals >= 0 ? token.decimals : null;
  const logo = isRecord(token.logo) ? (stringField(token.logo, 'src') ?? null) : null;
  const type = stringField(token, 'type')?.toLowerCase();
  const tags = [...(type ? [type] : []), ...(token.deprecation ? ['deprecated'] : [])];
  out.tokens.push({ address: located.address, chain, symbol, name, decimals, logoUrl: logo, tags });

  const common = { address: located.address, scope: chain, sourceUrl: null, seenAt: null };
  if (name ?? symbol)
    out.claims.push({
      ...common,
      kind: 'identity',
      category: TOKEN_LISTING.category,
      label: present(name ?? symbol, '(name ?? symbol)'),
      confidence: 100,
    });
  for (const flag of Array.isArray(token.red_flags) ? token.red_flags : []) {
    const mapping = isRecord(flag) ? ETHEREUM_LISTS_RED_FLAGS[stringField(flag, 'type') ?? ''] : undefined;
    if (!mapping || !isRecord(flag)) {
      out.untagged += 1;
      continue;
    }
    const url = stringField(flag, 'url');
    out.claims.push({
      ...common,
      kind: 'risk',
      category: mapping.category,
      label: stringField(flag, 'comment') ?? null,
      confidence: RED_FLAG_CONFIDENCE,
      sourceUrl: url && /^https?:\/\//.test(url) ? url : null,
    });
  }
  return out.finish();
}
