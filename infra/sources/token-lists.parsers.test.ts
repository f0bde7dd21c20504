import { describe, expect, it } from 'vitest';
import { madeUpEvmAddress, madeUpTronAddress } from '../../test/helpers/made-up-addresses.js';
import { fixtureText, thrownBy } from '../../test/helpers/source-fixtures.js';
import { parseEthereumListsToken } from './ethereum-lists-token.parser.js';
import { parseTrustwalletTokens } from './trustwallet-tokens.parser.js';

const evm = (seed: string): string => madeUpEvmAddress(seed).toLowerCase();
const tokenFile = (chain: string, seed: string): string => `tokens-ethereum-lists/${chain}/${madeUpEvmAddress(seed)}.json`;

describe('ethereum-lists tokens', () => {
  it('a token is metadata and a name on its own chain', () => {
    const file = tokenFile('eth', 'token-ext');
    const parsed = parseEthereumListsToken(fixtureText(file), file);
    expect(parsed.tokens).toEqual([
      {
        address: evm('token-ext'),
        chain: 'ETH',
        symbol: 'EXT',
        name: 'Example Token',
        decimals: 18,
        logoUrl: 'https://example.org/ext.png',
        tags: ['erc20'],
      },
    ]);
    expect(parsed.claims).toEqual([
      {
        address: evm('token-ext'),
        scope: 'ETH',
        kind: 'identity',
        category: 'token',
        label: 'Example Token',
        confidence: 100,
        sourceUrl: null,
        seenAt: null,
      },
    ]);
  });

  it('a red flag is a risk claim; a deprecation is a tag', () => {
    const file = tokenFile('eth', 'token-flagged');
    const parsed = parseEthereumListsToken(fixtureText(file), file);
    expect(parsed.tokens[0]!.tags).toEqual(['deprecated']);
    expect(parsed.claims[1]).toMatchObject({
      kind: 'risk',
      category: 'scam',
      label: 'fake example token',
      sourceUrl: 'https://example.org/flag',
    });
  });

  it('bsc folder tokens hold on BSC', () => {
    const file = tokenFile('bsc', 'token-bsc');
    expect(parseEthereumListsToken(fixtureText(file), file).tokens[0]).toMatchObject({ chain: 'BSC', tags: ['bep20'] });
  });

  it('names the file of a token without an address', () => {
    expect(thrownBy(() => parseEthereumListsToken('{"symbol": "X"}', 'tokens-ethereum-lists/eth/x.json')).message).toBe(
      'tokens-ethereum-lists/eth/x.json, record 1: expected a token with an address',
    );
  });
});

describe('Trust Wallet assets', () => {
  it('token lists: each token on the list’s chain, dated by the list', () => {
    const file = 'tokens-trustwallet-2021/smartchain/tokenlist.json';
    const parsed = parseTrustwalletTokens(fixtureText(file), file);
    expect(parsed.tokens).toEqual([
      {
        address: evm('token-bsc'),
        chain: 'BSC',
        symbol: 'BEX',
        name: 'BSC Example',
        decimals: 18,
        logoUrl: 'https://example.org/BEX.png',
        tags: ['bep20'],
      },
    ]);
    expect(parsed.dataDate).toBe('2021-06-17');
  });

  it('TRON TRC20 info: the logo beside it; a spam status is a scam claim and a tag', () => {
    const active = madeUpTronAddress('token-trc20');
    const spam = madeUpTronAddress('token-spam');
    const activeFile = `tokens-trustwallet-2021/tron/assets/${active}/info.json`;
    const spamFile = `tokens-trustwallet-2021/tron/assets/${spam}/info.json`;
    expect(parseTrustwalletTokens(fixtureText(activeFile), activeFile).tokens[0]).toMatchObject({
      address: active,
      chain: 'TRON',
      symbol: 'ETT',
      decimals: 6,
      tags: ['trc20'],
      logoUrl: expect.stringMatching(new RegExp(`/tron/assets/${active}/logo\\.png$`)),
    });
    const spamParsed = parseTrustwalletTokens(fixtureText(spamFile), spamFile);
    expect(spamParsed.tokens[0]!.tags).toEqual(['trc20', 'spam']);
    expect(spamParsed.claims.map((c) => [c.kind, c.category, c.scope])).toEqual([
      ['identity', 'token', 'TRON'],
      ['risk', 'scam', 'TRON'],
    ]);
  });

  it('TRC10 tokens and the chain coin have no address: skipped and counted', () => {
    for (const file of ['tokens-trustwallet-2021/tron/assets/1000001/info.json', 'tokens-trustwallet-2021/tron/info/info.json']) {
      expect(parseTrustwalletTokens(fixtureText(file), file)).toMatchObject({ claims: [], tokens: [], otherLedgers: 1 });
    }
  });
});
