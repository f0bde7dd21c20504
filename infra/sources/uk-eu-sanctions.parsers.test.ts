import { describe, expect, it } from 'vitest';
import { madeUpEvmAddress, madeUpTronAddress } from '../../test/helpers/made-up-addresses.js';
import { brokenFixtureText, fixtureText, thrownBy } from '../../test/helpers/source-fixtures.js';
import { parseEuFsfXml } from './eu-fsf.parser.js';
import { parseOfsiConList } from './ofsi-conlist.parser.js';
import type { ClaimDraft } from './parsed-file.js';
import { addressesInText } from './sanctions-text-addresses.js';

const sanctionOf = (claims: readonly ClaimDraft[], address: string) => {
  const claim = claims.find((c) => c.address === address);
  return claim?.kind === 'sanction' ? claim.sanction : undefined;
};

describe('addresses in the free text of the UK and EU lists', () => {
  it('finds 0x and checksummed TRON addresses with the ticker before them, and nothing else', () => {
    const eth = madeUpEvmAddress('text-eth');
    const trx = madeUpTronAddress('text-trx');
    const text = `Digital Currency Address: ETH ${eth}; USDT (TRC20): ${trx}. Passport TUVWXYZabcdefghijkmnopqrstuvwxyz12, wallet ${eth.toLowerCase()}`;
    expect(addressesInText(text)).toEqual([
      { raw: eth, asset: 'ETH' },
      { raw: trx, asset: 'TRC20' },
      { raw: eth.toLowerCase(), asset: null },
    ]);
  });
});

describe('OFSI Consolidated List (ConList.csv, 2022 format) parser', () => {
  const file = 'ofsi-uk-consolidated/ConList.csv';
  const parsed = parseOfsiConList(fixtureText(file), file);

  it("turns each address in a target's Other Information into one UK sanction naming its primary name", () => {
    expect(parsed.claims.map((c) => [c.address, c.scope])).toEqual([
      [madeUpEvmAddress('uk-cyber-eth').toLowerCase(), 'evm'],
      [madeUpTronAddress('uk-cyber-usdt'), 'TRON'],
      [madeUpEvmAddress('uk-doe-eth').toLowerCase(), 'evm'],
    ]);
    expect(sanctionOf(parsed.claims, madeUpTronAddress('uk-cyber-usdt'))).toEqual({
      list: 'UK',
      entity: 'EXAMPLE CYBER GROUP',
      program: 'Cyber',
      listEntryId: '99001',
      listDate: '2024-05-02',
      asset: 'TRC20',
    });
    expect(sanctionOf(parsed.claims, madeUpEvmAddress('uk-doe-eth').toLowerCase())).toMatchObject({
      entity: 'DOE, Jane Mary',
      program: 'Russia',
      listDate: '2022-03-15',
    });
  });

  it('dates the data by its Last Updated line and leaves other ledgers out', () => {
    expect(parsed).toMatchObject({ dataDate: '2026-03-14', records: 3, rejected: [] });
  });

  it('names the file and line of a row with a missing column, and of a missing header', () => {
    const error = thrownBy(() => parseOfsiConList(brokenFixtureText(file), file));
    expect(error.code).toBe('data_import_failed');
    expect(error.message).toBe('ofsi-uk-consolidated/ConList.csv, line 4: 35 columns, the header has 36');
    expect(thrownBy(() => parseOfsiConList('Group ID,Name 6\n1,X\n', file)).message).toBe(
      `${file}, line 1: expected 'Last Updated,<date>'`,
    );
    expect(thrownBy(() => parseOfsiConList('Last Updated,01/02/2026\nName 6,Regime\n', file)).message).toMatch(
      /line 2: missing column\(s\) Group ID, Other Information, Listed On$/,
    );
  });
});

describe('EU Financial Sanctions Files (XML 1.1) parser', () => {
  const file = 'eu-fsf-consolidated/xmlFullSanctionsList_1_1.xml';
  const parsed = parseEuFsfXml(fixtureText(file), file);

  it('reads addresses from remarks and identification numbers, naming the strong alias, programme and designation date', () => {
    expect(parsed.claims.map((c) => [c.address, c.scope])).toEqual([
      [madeUpEvmAddress('eu-exchange-eth').toLowerCase(), 'evm'],
      [madeUpTronAddress('eu-exchange-trx'), 'TRON'],
      [madeUpEvmAddress('eu-person-eth').toLowerCase(), 'evm'],
    ]);
    expect(sanctionOf(parsed.claims, madeUpTronAddress('eu-exchange-trx'))).toEqual({
      list: 'EU',
      entity: 'Example Crypto Exchange',
      program: 'RUS',
      listEntryId: 'EU.9901.01',
      listDate: '2024-12-16',
      asset: 'TRX',
    });
    // No designationDate attribute: the earliest regulation's publication date.
    expect(sanctionOf(parsed.claims, madeUpEvmAddress('eu-person-eth').toLowerCase())).toMatchObject({
      entity: 'John EXAMPLE',
      program: 'BLR',
      listDate: '2023-06-23',
    });
  });

  it("dates the data by the export's generationDate", () => {
    expect(parsed).toMatchObject({ dataDate: '2026-03-20', records: 3, rejected: [] });
  });

  it('names the file and line of a truncated export, and refuses another root', () => {
    const error = thrownBy(() => parseEuFsfXml(brokenFixtureText(file), file));
    expect(error.message).toMatch(
      /^eu-fsf-consolidated\/xmlFullSanctionsList_1_1\.xml, line \d+: truncated: <\w+> of line \d+ is never closed$/,
    );
    expect(thrownBy(() => parseEuFsfXml('<sdnList/>', file)).message).toBe(`${file}, line 1: root <sdnList> is not <export>`);
  });
});
