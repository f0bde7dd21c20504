import { describe, expect, it } from 'vitest';
import { madeUpEvmAddress, madeUpTronAddress } from '../../test/helpers/made-up-addresses.js';
import { brokenFixtureText, fixtureText, thrownBy } from '../../test/helpers/source-fixtures.js';
import { parseBraveOfacList } from './brave-ofac-lists.parser.js';
import { parseOfacSdnAdvanced } from './ofac-sdn-advanced.parser.js';
import { parseOfacSdnCsv } from './ofac-sdn-csv.parser.js';
import { parseOfacWalletList } from './ofac-wallet-lists.parser.js';
import type { ClaimDraft } from './parsed-file.js';
import { parseUltrasoundOfac } from './ultrasound-ofac.parser.js';

const groupEth = madeUpEvmAddress('sdn-group-eth').toLowerCase();
const groupUsdt = madeUpTronAddress('sdn-group-usdt');
const doeTrx = madeUpTronAddress('sdn-doe-trx');

const sanctionOf = (claims: readonly ClaimDraft[], address: string) => {
  const claim = claims.find((c) => c.address === address);
  return claim?.kind === 'sanction' ? claim.sanction : undefined;
};

describe('OFAC SDN_ADVANCED.XML parser', () => {
  const file = 'ofac-sdn-official/sdn_advanced.digital-currency-subset.xml';
  const parsed = parseOfacSdnAdvanced(fixtureText(file), file);

  it('turns every digital currency address of a party into a sanction naming the party', () => {
    expect(parsed.claims.map((c) => [c.address, c.scope])).toEqual([
      [groupEth, 'evm'],
      [groupUsdt, 'TRON'],
      [doeTrx, 'TRON'],
    ]);
    expect(sanctionOf(parsed.claims, groupEth)).toEqual({
      list: 'US',
      entity: 'EXAMPLE SANCTIONED GROUP',
      program: 'CYBER2; DPRK3',
      listEntryId: '90001',
      listDate: '2022-04-14',
      asset: 'ETH',
    });
    expect(parsed.claims[0]!.sourceUrl).toBe('https://sanctionssearch.ofac.treas.gov/Details.aspx?id=90001');
  });

  it('writes individuals LAST, First from the primary Latin name, dated by their first entry event', () => {
    expect(sanctionOf(parsed.claims, doeTrx)).toMatchObject({
      entity: 'DOE, John',
      program: 'SDNTK',
      listDate: '2023-06-01',
      asset: 'TRX',
    });
  });

  it('counts other ledgers, skips other features, and dates the data by DateOfIssue', () => {
    expect(parsed).toMatchObject({ records: 4, otherLedgers: 1, rejected: [], dataDate: '2025-01-15' });
  });

  it('names the file and line of a truncated document', () => {
    const broken = 'ofac-sdn-official/sdn_advanced.truncated.xml';
    const error = thrownBy(() => parseOfacSdnAdvanced(brokenFixtureText(broken), broken));
    expect(error.code).toBe('data_import_failed');
    expect(error.message).toMatch(
      /^ofac-sdn-official\/sdn_advanced\.truncated\.xml, line \d+: truncated: <\w+> of line \d+ is never closed$/,
    );
  });
});

describe('OFAC SDN.CSV parser', () => {
  const file = 'ofac-sdn-official/SDN.CSV';
  const parsed = parseOfacSdnCsv(fixtureText(file, 'latin1'), file);

  it('reads addresses from Remarks, with entity, programs and entry number', () => {
    expect(sanctionOf(parsed.claims, groupEth)).toEqual({
      list: 'US',
      entity: 'EXAMPLE SANCTIONED GROUP',
      program: 'CYBER2; DPRK3',
      listEntryId: '90001',
      listDate: null,
      asset: 'ETH',
    });
    expect(sanctionOf(parsed.claims, doeTrx)).toMatchObject({ entity: 'DOE, John', program: 'SDNTK' });
  });

  it('drops the last item of a Remarks that OFAC cut off, instead of reading half an address', () => {
    expect(parsed.claims).toHaveLength(3); // group ETH, stale ETH, Doe TRX; not Doe's truncated ETH
    expect(parsed.rejected).toEqual([]);
    expect(parsed.otherLedgers).toBe(1);
  });

  it('names the file and line of bad quoting', () => {
    const broken = 'ofac-sdn-official/SDN.bad-quoting.CSV';
    expect(thrownBy(() => parseOfacSdnCsv(brokenFixtureText(broken), broken)).message).toBe(
      'ofac-sdn-official/SDN.bad-quoting.CSV, line 2: text after a closing quote',
    );
  });
});

describe('OFAC address lists', () => {
  it('brave-intl: TXT and JSON, the asset from the file name', () => {
    const txt = parseBraveOfacList(
      fixtureText('ofac-brave-intl-lists/sanctioned_addresses_TRX.txt'),
      'ofac-brave-intl-lists/sanctioned_addresses_TRX.txt',
    );
    const json = parseBraveOfacList(
      fixtureText('ofac-brave-intl-lists/sanctioned_addresses_ETH.json'),
      'ofac-brave-intl-lists/sanctioned_addresses_ETH.json',
    );
    expect(sanctionOf(txt.claims, doeTrx)).toMatchObject({ asset: 'TRX', entity: null });
    expect(json.claims.map((c) => [c.address, c.scope])).toEqual([[groupEth, 'evm']]);
  });

  it('brave-intl: a TRON address with a broken checksum is rejected by line', () => {
    const broken = 'ofac-brave-intl-lists/sanctioned_addresses_TRX.txt';
    expect(thrownBy(() => parseBraveOfacList(brokenFixtureText(broken), broken)).message).toMatch(
      /^ofac-brave-intl-lists\/sanctioned_addresses_TRX\.txt, line 2: invalid address 'T\w{33}' \(1 of 2 records rejected\)$/,
    );
  });

  it('ultrasound.money: address and entity name, case normalized', () => {
    const file = 'ofac-ultrasoundmoney-eth/data.csv';
    const parsed = parseUltrasoundOfac(fixtureText(file), file);
    expect(parsed.claims.map((c) => c.label)).toEqual(['EXAMPLE SANCTIONED GROUP', 'NEWLY DESIGNATED LTD']);
    expect(parsed.claims[1]!.address).toBe(madeUpEvmAddress('sdn-new-2026').toLowerCase());
  });

  it('1020-1795: skips the header, keeps TRON case, dates the file by its header', () => {
    const file = 'ofac-1020-1795-wallet-lists/2_Tron_Sanctioned_Wallet_List.txt';
    const parsed = parseOfacWalletList(fixtureText(file), file);
    expect(parsed.claims.map((c) => c.address)).toEqual([doeTrx, groupUsdt]);
    expect(parsed.dataDate).toBe('2026-02-01');
  });

  it('1020-1795: an invalid address names its line', () => {
    const broken = 'ofac-1020-1795-wallet-lists/4_Ethereum_Sanctioned_Wallet_List.txt';
    expect(thrownBy(() => parseOfacWalletList(brokenFixtureText(broken), broken)).message).toBe(
      "ofac-1020-1795-wallet-lists/4_Ethereum_Sanctioned_Wallet_List.txt, line 4: invalid address '0x12ab34' (1 of 2 records rejected)",
    );
  });

  it('tolerates an isolated typo in a long list, and reports it', () => {
    const lines = Array.from({ length: 150 }, (_, i) => madeUpEvmAddress(`bulk-${i}`));
    const text = `# Last Updated: 2026-02-01 10:00:00 UTC\n\n${[...lines, '0x9CdfC5b0'].join('\n')}\n`;
    const parsed = parseOfacWalletList(text, 'bulk.txt');
    expect(parsed.claims).toHaveLength(150);
    expect(parsed.rejected).toEqual([{ file: 'bulk.txt', where: 'line 153', reason: "invalid address '0x9CdfC5b0'" }]);
  });
});
