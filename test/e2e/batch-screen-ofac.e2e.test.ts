import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEvmAddress, isTronAddress } from '../../domain/shared/address.js';
import { parseOfacSdnAdvanced } from '../../infra/sources/ofac-sdn-advanced.parser.js';

/**
 * `npm run cli -- screen` on a fresh data directory with SVC_SOURCES_DIR=../shared/data, over every
 * ETH, BSC and TRON address of the OFAC lists (read from the data at run time): each is `sanctioned`,
 * TRON addresses keep their case end to end, and every address an OFAC publication names an entity
 * for is screened with that entity.
 */

const run = promisify(execFile);
const sourcesDir = resolve(process.env.SVC_SOURCES_DIR || '../shared/data');
const available = existsSync(join(sourcesDir, 'ofac-sdn-official'));
if (!available) console.warn(`batch-screen-ofac.e2e: skipped, ${sourcesDir} is absent (set SVC_SOURCES_DIR)`);

const lines = (path: string): string[] =>
  readFileSync(join(sourcesDir, path), 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

/** Every address of the OFAC lists usable on ETH/BSC (0x) and TRON, with the entity a publication names. */
function ofacAddresses(): { evm: Set<string>; tron: Set<string>; entities: Map<string, string> } {
  const listed = [
    ...['ETH', 'BSC', 'ARB', 'USDC', 'USDT', 'TRX'].flatMap((asset) => lines(`ofac-brave-intl-lists/sanctioned_addresses_${asset}.txt`)),
    ...lines('ofac-1020-1795-wallet-lists/2_Tron_Sanctioned_Wallet_List.txt'),
    ...lines('ofac-1020-1795-wallet-lists/4_Ethereum_Sanctioned_Wallet_List.txt'),
    ...lines('ofac-ultrasoundmoney-eth/data.csv')
      .slice(1)
      .map((l) => l.split(',')[0]!),
  ];
  const file = 'ofac-sdn-official/sdn_advanced.digital-currency-subset.xml';
  const xml = parseOfacSdnAdvanced(readFileSync(join(sourcesDir, file), 'utf8'), file).claims;
  const entities = new Map<string, string>();
  for (const claim of xml) if (claim.kind === 'sanction' && claim.sanction.entity) entities.set(claim.address, claim.sanction.entity);
  for (const line of lines('ofac-ultrasoundmoney-eth/data.csv').slice(1)) {
    const [address, name] = line.split(/,(.*)/s) as [string, string];
    if (!entities.has(address.toLowerCase())) entities.set(address.toLowerCase(), name.replace(/^"|"$/g, ''));
  }
  const all = [...listed, ...xml.map((c) => c.address)];
  return {
    evm: new Set(all.filter((a) => /^0x/i.test(a) && isEvmAddress(a)).map((a) => a.toLowerCase())),
    tron: new Set(all.filter(isTronAddress)),
    entities,
  };
}

describe.skipIf(!available)('batch screen (CLI, JSON Lines) over the OFAC lists', () => {
  let dataDir: string;
  const screened = new Map<string, any[]>();
  const lists = available ? ofacAddresses() : { evm: new Set<string>(), tron: new Set<string>(), entities: new Map() };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-batch-'));
    for (const [network, addresses] of [
      ['TRON', lists.tron],
      ['ETH', lists.evm],
      ['BSC', lists.evm],
    ] as const) {
      const file = join(dataDir, `${network}.txt`);
      await writeFile(file, `# OFAC-listed addresses\n${[...addresses].join('\n')}\n`);
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', 'infra/cli/main.ts', 'screen', '--network', network.toLowerCase(), '--file', file],
        {
          env: {
            ...process.env,
            MODE: 'embedded',
            DATA_DIR: join(dataDir, 'data'),
            SVC_SOURCES_DIR: sourcesDir,
            LOG_LEVEL: 'silent',
            SVC_FSYNC: '0',
          },
          maxBuffer: 256 * 1024 * 1024,
        },
      );
      screened.set(
        network,
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      );
    }
  }, 180_000);
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('reads a meaningful number of addresses from the lists', () => {
    expect(lists.tron.size).toBeGreaterThanOrEqual(276);
    expect(lists.evm.size).toBeGreaterThanOrEqual(97);
  });

  it.each(['ETH', 'BSC', 'TRON'])("every %s line is the API's verdict body, sanctioned, without billing", (network) => {
    const rows = screened.get(network)!;
    expect(rows).toHaveLength(network === 'TRON' ? lists.tron.size : lists.evm.size);
    const notSanctioned = rows.filter((row) => row.verdict?.risk_level !== 'sanctioned').map((row) => row.address);
    expect(notSanctioned).toEqual([]);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual(['address', 'coverage', 'elapsed_ms', 'network', 'provider', 'schema_version', 'verdict']);
      expect(row.network).toBe(network);
      expect(row.coverage.data_versions.sources.length).toBeGreaterThan(0);
      // The CLI's line names the lists it checked, and those it did not, as every verdict does.
      expect(row.coverage.sanctions.checked).toContain('US');
      expect([...row.coverage.sanctions.checked, ...row.coverage.sanctions.not_checked].sort()).toEqual(['EU', 'UK', 'US']);
    }
  });

  it('TRON addresses keep their case end to end', () => {
    const echoed = new Set(screened.get('TRON')!.map((row) => row.address));
    expect(echoed).toEqual(lists.tron);
    expect([...echoed].every((address) => /[a-z]/.test(address) && /[A-Z]/.test(address.slice(1)))).toBe(true);
  });

  it('every address an OFAC publication names is screened with that entity, in sdn_match and label', () => {
    const wrong: string[] = [];
    for (const network of ['ETH', 'BSC', 'TRON']) {
      for (const row of screened.get(network)!) {
        const entity = lists.entities.get(row.address);
        if (entity === undefined) continue;
        if (
          row.verdict.sdn_match?.entity?.toLowerCase() !== entity.toLowerCase() &&
          row.verdict.label?.toLowerCase() !== entity.toLowerCase()
        ) {
          wrong.push(`${network} ${row.address}: ${row.verdict.sdn_match?.entity} / ${row.verdict.label}, expected ${entity}`);
        }
        expect(row.verdict.sdn_match.list).toBe('US');
      }
    }
    expect(wrong).toEqual([]);
    expect(screened.get('TRON')!.filter((row) => row.verdict.sdn_match.entity !== null).length).toBeGreaterThanOrEqual(100);
  });
});
