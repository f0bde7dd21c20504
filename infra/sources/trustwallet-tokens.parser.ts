import { present } from '../../domain/shared/present.js';
import { TRUSTWALLET_ADDRESSED_TYPES, TRUSTWALLET_STATUSES } from '../../domain/intel/native-tags.js';
import type { Network } from '../../domain/shared/network.js';
import { isRecord, parseJsonFile, stringField } from './json-file.js';
import { isoDay, malformed, ParsedFileBuilder, type ParsedFile } from './parsed-file.js';

/**
 * Trust Wallet's asset repository (2021): `<chain>/tokenlist.json` (a Uniswap-style token list) for
 * Ethereum and Smart Chain, and `tron/assets/<id>/info.json` per TRON token. TRC10 tokens are named by
 * a number, not an address, and are skipped (counted). A token is a contract on its own chain only.
 */

const LIST_CHAINS: Readonly<Record<string, Network>> = { ethereum: 'ETH', smartchain: 'BSC' };
/** Trust Wallet keeps each logo beside its info.json; the file itself does not name it. */
const TRON_LOGO_BASE =
  'https://raw.githubusercontent.com/trustwallet/assets/ae55cb498404456da9293c4493bf7bd4220829a1/blockchains/tron/assets/';

interface TokenFields {
  readonly raw: string;
  readonly where: string;
  readonly chain: Network;
  readonly name: string | null;
  readonly symbol: string | null;
  readonly decimals: number | null;
  readonly logoUrl: string | null;
  readonly type: string | undefined;
  readonly status: string;
}

function addToken(out: ParsedFileBuilder, token: TokenFields): void {
  out.records += 1;
  const located = out.locate(token.raw, token.where);
  if (!located) return;
  const status = Object.hasOwn(TRUSTWALLET_STATUSES, token.status)
    ? present(TRUSTWALLET_STATUSES[token.status], 'Object.hasOwn checked the status just before')
    : null;
  if (!status) {
    out.untagged += 1;
    return;
  }
  const tags = [...(token.type ? [token.type.toLowerCase()] : []), ...(token.status === 'active' ? [] : [token.status])];
  out.tokens.push({
    address: located.address,
    chain: token.chain,
    symbol: token.symbol,
    name: token.name,
    decimals: token.decimals,
    logoUrl: token.logoUrl,
    tags,
  });
  const common = { address: located.address, scope: token.chain, confidence: 100, sourceUrl: null, seenAt: null };
  const label = token.name ?? token.symbol;
  if (label) out.claims.push({ ...common, kind: 'identity', category: 'token', label });
  if ('category' in status && status.kind === 'risk') out.claims.push({ ...common, kind: 'risk', category: status.category, label });
}

const decimalsOf = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

export function parseTrustwalletTokens(text: string, file: string): ParsedFile {
  const out = new ParsedFileBuilder(file);
  const json = parseJsonFile(text, file);
  if (!isRecord(json)) throw malformed(file, 'record 1', 'expected a JSON object');
  const folders = file.split('/');
  const listChain = LIST_CHAINS[folders.at(-2) ?? ''];
  if (file.endsWith('tokenlist.json') && listChain) {
    if (!Array.isArray(json.tokens)) throw malformed(file, 'record 1', 'expected a token list with a tokens array');
    out.dataDate = isoDay(json.timestamp);
    json.tokens.forEach((token: unknown, i) => {
      const where = `record ${i + 1}`;
      if (!isRecord(token) || typeof token.address !== 'string') throw malformed(file, where, 'expected a token with an address');
      addToken(out, {
        raw: token.address,
        where,
        chain: listChain,
        name: stringField(token, 'name') ?? null,
        symbol: stringField(token, 'symbol') ?? null,
        decimals: decimalsOf(token.decimals),
        logoUrl: stringField(token, 'logoURI') ?? null,
        type: stringField(token, 'type'),
        status: 'active',
      });
    });
  } else if (file.endsWith('info.json') && folders.includes('tron')) {
    const type = stringField(json, 'type');
    const id = stringField(json, 'id');
    if (!type || !TRUSTWALLET_ADDRESSED_TYPES.has(type) || !id) {
      out.records = 1;
      out.otherLedgers = 1;
      return out.finish();
    }
    addToken(out, {
      raw: id,
      where: 'record 1',
      chain: 'TRON',
      name: stringField(json, 'name') ?? null,
      symbol: stringField(json, 'symbol') ?? null,
      decimals: decimalsOf(json.decimals),
      logoUrl: `${TRON_LOGO_BASE}${id}/logo.png`,
      type,
      status: stringField(json, 'status') ?? 'active',
    });
  } else {
    throw malformed(file, 'file name', 'expected <ethereum|smartchain>/tokenlist.json or tron/.../info.json');
  }
  return out.finish();
}
