import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { madeUpEvmAddress, madeUpTronAddress } from '../../test/helpers/made-up-addresses.js';
import { brokenFixtureText, fixtureText, thrownBy } from '../../test/helpers/source-fixtures.js';
import { parseFortaLabels } from './forta-labels.parser.js';
import { parseGraphsenseTagpack } from './graphsense-tagpack.parser.js';
import { parseMewAddresses } from './mew-addresses.parser.js';
import type { ClaimDraft, ParsedFile } from './parsed-file.js';

const evm = (seed: string): string => madeUpEvmAddress(seed).toLowerCase();
const parse = (parser: (text: string, file: string) => ParsedFile, file: string): ParsedFile => parser(fixtureText(file), file);
const summary = (claims: readonly ClaimDraft[]) =>
  claims.map((c) => ({ address: c.address, scope: c.scope, kind: c.kind, category: c.category, label: c.label }));

describe('MEW address lists', () => {
  it('darklist: comments refine the category, dates are kept, addresses normalized', () => {
    const parsed = parse(parseMewAddresses, 'mew-ethereum-lists/addresses-darklist.json');
    expect(summary(parsed.claims)).toEqual([
      { address: evm('mew-phish'), scope: 'evm', kind: 'risk', category: 'phishing', label: 'Fake Example crowdsale site' },
      { address: evm('mew-scam'), scope: 'evm', kind: 'risk', category: 'scam', label: 'Trust trading 0.1ETH for 2ETH' },
      { address: evm('mew-hack'), scope: 'evm', kind: 'risk', category: 'stolen_funds', label: 'MultisigExploit-Hacker' },
      { address: evm('mew-empty'), scope: 'evm', kind: 'risk', category: 'scam', label: null },
    ]);
    expect(parsed.claims.map((c) => c.seenAt)).toEqual(['2018-05-01', '2018-03-02', null, '2017-09-09']);
    expect(parsed.dataDate).toBe('2018-05-01');
  });

  it('lightlist: a verified project name on Ethereum', () => {
    const parsed = parse(parseMewAddresses, 'mew-ethereum-lists/addresses-lightlist.json');
    expect(summary(parsed.claims)).toEqual([
      { address: evm('mew-light'), scope: 'ETH', kind: 'identity', category: 'named_entity', label: 'Example Project' },
    ]);
  });

  it('names the file and line of invalid JSON', () => {
    const file = 'mew-ethereum-lists/addresses-darklist.json';
    expect(thrownBy(() => parseMewAddresses(brokenFixtureText(file), file)).message).toBe(
      'mew-ethereum-lists/addresses-darklist.json, line 3: invalid JSON at column 3',
    );
  });
});

describe('Forta labelled datasets', () => {
  it('Etherscan lists: phish-hack is phishing unless the tag says hack; exploit and heist are theft', () => {
    const parsed = parse(parseFortaLabels, 'forta-labelled-datasets/1/etherscan_malicious_labels.csv');
    expect(summary(parsed.claims).map((c) => [c.address, c.category, c.label])).toEqual([
      [evm('forta-phish'), 'phishing', 'Fake_Phishing1001'],
      [evm('forta-exploit'), 'stolen_funds', 'Example Protocol Exploiter'],
      [evm('forta-hack-in-phish-list'), 'stolen_funds', 'Example Exchange Hacker 2'],
      [evm('forta-heist'), 'stolen_funds', null],
    ]);
  });

  it('phishing scams: a contract holds on its chain only and is marked as a contract', () => {
    const parsed = parse(parseFortaLabels, 'forta-labelled-datasets/1/phishing_scams.csv');
    expect(summary(parsed.claims)).toEqual([
      { address: evm('forta-phish'), scope: 'evm', kind: 'risk', category: 'phishing', label: 'Fake_Phishing1001' },
      { address: evm('forta-phish-contract'), scope: 'ETH', kind: 'risk', category: 'phishing', label: 'Example Airdrop (EXA), claim now' },
      { address: evm('forta-phish-contract'), scope: 'ETH', kind: 'risk', category: 'contract', label: null },
    ]);
  });

  it('malicious contracts: the contract on its chain, a labelled creator everywhere', () => {
    const parsed = parse(parseFortaLabels, 'forta-labelled-datasets/1/malicious_smart_contracts.csv');
    expect(summary(parsed.claims).map((c) => [c.address, c.scope, c.category])).toEqual([
      [evm('forta-contract'), 'ETH', 'stolen_funds'],
      [evm('forta-contract'), 'ETH', 'contract'],
      [evm('forta-creator'), 'evm', 'stolen_funds'],
      [evm('forta-contract-2'), 'ETH', 'stolen_funds'],
      [evm('forta-contract-2'), 'ETH', 'contract'],
    ]);
  });

  it('Optimism: the contract is skipped and counted, its exploiter creator kept', () => {
    const parsed = parse(parseFortaLabels, 'forta-labelled-datasets/10/malicious_smart_contracts.csv');
    expect(summary(parsed.claims).map((c) => [c.address, c.scope, c.category])).toEqual([[evm('forta-op-creator'), 'evm', 'stolen_funds']]);
    expect(parsed.otherLedgers).toBe(1);
  });

  it('names the file and line of a row with missing fields', () => {
    const file = 'forta-labelled-datasets/1/phishing_scams.csv';
    expect(thrownBy(() => parseFortaLabels(brokenFixtureText(file), file)).message).toBe(
      'forta-labelled-datasets/1/phishing_scams.csv, line 3: 3 fields where the header has 4',
    );
  });
});

describe('GraphSense TagPacks', () => {
  it('exchange packs: names hold on the network of their currency, TRON included', () => {
    const parsed = parse(parseGraphsenseTagpack, 'graphsense-tagpacks/exchange-wallets-example.json');
    expect(summary(parsed.claims)).toEqual([
      { address: evm('gs-exchange-eth'), scope: 'ETH', kind: 'identity', category: 'exchange', label: 'example exchange reserve ETH' },
      {
        address: madeUpTronAddress('gs-exchange-trx'),
        scope: 'TRON',
        kind: 'identity',
        category: 'exchange',
        label: 'example exchange reserve TRX',
      },
      { address: evm('gs-exchange-bsc'), scope: 'BSC', kind: 'identity', category: 'exchange', label: 'example exchange reserve BNB' },
    ]);
    expect(parsed.claims[0]).toMatchObject({ confidence: 50, sourceUrl: 'https://example.org/reserves', seenAt: '2022-11-16' });
  });

  it('tags inherit the header: abuse per tag, else the pack label’s words', () => {
    const parsed = parse(parseGraphsenseTagpack, 'graphsense-tagpacks/example-fraud.json');
    expect(summary(parsed.claims).map((c) => [c.address, c.kind, c.category, c.label])).toEqual([
      [evm('gs-phish'), 'risk', 'phishing', 'defi fraud'],
      [evm('forta-phish'), 'risk', 'phishing', 'defi fraud'],
      [evm('gs-hack'), 'risk', 'stolen_funds', 'example bridge exploit'],
      [evm('gs-fraud-nolabel'), 'risk', 'scam', 'defi fraud'],
    ]);
    expect(parsed.claims.map((c) => c.confidence)).toEqual([20, 20, 20, 20]);
  });

  it('label clouds: risk words are risk, other names are entities, known actors give their kind', () => {
    const parsed = parse(parseGraphsenseTagpack, 'graphsense-tagpacks/example-label-cloud.json');
    expect(summary(parsed.claims).map((c) => [c.kind, c.category, c.scope, c.label])).toEqual([
      ['risk', 'phishing', 'evm', 'Fake_Phishing77'],
      ['identity', 'named_entity', 'ETH', 'Example DEX: Router'],
      ['identity', 'exchange', 'ETH', 'Example Exchange 3'],
      ['identity', 'named_entity', 'ETH', 'BankHeist4D'],
    ]);
  });

  it('USDT blacklist: an issuer freeze on Ethereum, proven by its transaction', () => {
    const [claim] = parse(parseGraphsenseTagpack, 'graphsense-tagpacks/usdt_blacklist.json').claims;
    expect(claim).toMatchObject({ scope: 'ETH', category: 'issuer_blocked', confidence: 100, label: 'USDT_blacklisted' });
    expect(claim!.sourceUrl).toMatch(/^https:\/\/etherscan\.io\/tx\/0x[0-9a-f]{64}$/);
  });

  it('the OFAC echo pack is deliberately ignored and counted', () => {
    const parsed = parse(parseGraphsenseTagpack, 'graphsense-tagpacks/ofac.json');
    expect(parsed).toMatchObject({ claims: [], records: 1, untagged: 1 });
  });

  it('names the file of a pack without a tags array', () => {
    const file = 'graphsense-tagpacks/example-fraud.json';
    expect(thrownBy(() => parseGraphsenseTagpack(brokenFixtureText(file), file)).message).toBe(
      'graphsense-tagpacks/example-fraud.json, record 1: expected a TagPack with a tags array',
    );
  });
});

describe('GraphSense TagPacks in YAML, as upstream publishes them', () => {
  const upstream = (name: string): string =>
    readFileSync(join(import.meta.dirname, '../../test/fixtures/upstream-formats/graphsense', name), 'utf8');

  it('reads a YAML pack like its JSON conversion: header inherited, TRON case kept, names per network', () => {
    const file = 'graphsense-tagpacks/exchange-wallets-example.yaml';
    const parsed = parseGraphsenseTagpack(upstream('exchange-wallets-example.yaml'), file);
    expect(summary(parsed.claims)).toEqual([
      { address: evm('yaml-exchange-eth'), scope: 'ETH', kind: 'identity', category: 'exchange', label: 'ExampleX hot wallet' },
      {
        address: madeUpTronAddress('yaml-exchange-trx'),
        scope: 'TRON',
        kind: 'identity',
        category: 'exchange',
        label: 'ExampleX TRON deposit',
      },
    ]);
    expect(parsed.claims.map((c) => c.confidence)).toEqual([50, 50]);
    expect(parsed.dataDate).toBe('2024-05-02');
  });

  it('names the file and line of broken YAML', () => {
    const file = 'graphsense-tagpacks/broken-indentation.yaml';
    const error = thrownBy(() => parseGraphsenseTagpack(upstream('broken-indentation.yaml'), file));
    expect(error.code).toBe('data_import_failed');
    expect(error.message).toMatch(/^graphsense-tagpacks\/broken-indentation\.yaml, line 6: invalid YAML: /);
  });
});
