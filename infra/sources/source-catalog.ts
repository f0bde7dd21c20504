import type { SourceDescriptor } from '../../domain/intel/intel.types.js';
import { parseBraveOfacList } from './brave-ofac-lists.parser.js';
import { parseEthereumListsToken } from './ethereum-lists-token.parser.js';
import { parseFortaLabels } from './forta-labels.parser.js';
import { parseGraphsenseTagpack } from './graphsense-tagpack.parser.js';
import { parseMewAddresses } from './mew-addresses.parser.js';
import { parseOfacSdnAdvanced } from './ofac-sdn-advanced.parser.js';
import { parseOfacSdnCsv } from './ofac-sdn-csv.parser.js';
import { parseOfacWalletList } from './ofac-wallet-lists.parser.js';
import type { FileParser } from './parsed-file.js';
import { parseTrustwalletTokens } from './trustwallet-tokens.parser.js';
import { parseUltrasoundOfac } from './ultrasound-ofac.parser.js';
import { parseEuFsfXml } from './eu-fsf.parser.js';
import { parseOfsiConList } from './ofsi-conlist.parser.js';
import { githubFiles, githubRaw, type UpstreamSpec } from './upstream-spec.js';

/**
 * Every source the service imports: who it is and how far we trust it, which files of its folder under
 * SVC_SOURCES_DIR it reads (the folder layout of ../shared/data, see its SOURCES.md), and where each
 * file comes from upstream.
 *
 * Trust weights, highest first: OFAC's own publications 100 (the registry itself); third-party
 * verbatim extracts of OFAC 90 (one conversion step that can err); GraphSense 80 (curated attribution
 * with provenance and a per-pack confidence); Etherscan's labels via Forta 70 (manual labels of a block
 * explorer, exported once in 2023); token lists 60 (community registries with reviewed pull requests);
 * MEW's darklist 50 (community reports from 2017–2018, never re-verified).
 */

export interface SourceFileSpec {
  /** Path under the source's folder. */
  readonly match: RegExp;
  readonly parse: FileParser;
  readonly encoding?: BufferEncoding;
}

export interface CatalogEntry {
  readonly descriptor: SourceDescriptor;
  /** Folder under SVC_SOURCES_DIR. */
  readonly folder: string;
  readonly files: readonly SourceFileSpec[];
  /** Upstream URL of a file, from its path under the folder (the provenance of its claims). */
  readonly upstreamUrl: (path: string) => string;
  /** What `data sync` downloads, and where each file lands under the folder. */
  readonly upstream: UpstreamSpec;
  /**
   * An older or less complete publication of the same list as another source: its designations count
   * only where that source (when imported) also lists the address. OFAC publishes SDN.CSV beside
   * SDN_ADVANCED.XML and the CSV truncates long remarks, so a CSV-only address is a stale designation.
   */
  readonly supersededBy?: string;
}

const github =
  (repository: string, commit: string, prefix = '') =>
  (path: string): string =>
    githubRaw(repository, commit, `${prefix}${path}`);

const OFAC_EXPORTS = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/';
/** OFSI's Consolidated List in its 2022 format (the FCDO UK Sanctions List succeeds it in 2026). */
const OFSI_CONLIST = 'https://ofsistorage.blob.core.windows.net/publishlive/2022format/ConList.csv';
/** The EU Financial Sanctions Files export, schema 1.1; the token is the public one the EU's page links. */
const EU_FSF_XML = 'https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?token=dG9rZW4tMjAxNw';

const BRAVE = ['brave-intl/ofac-sanctioned-digital-currency-addresses', '9680d788291780da92da1ccfdba507e3174367a8'] as const;
const ULTRASOUND = ['ultrasoundmoney/ofac-ethereum-addresses', '74a24ed22a73225b5f3a70f84f989b814e8ff627'] as const;
const WALLET_LISTS = ['1020-1795/OFAC_SDN_Wallet_List', '8817cdb478c2d7d78b7fea5375e36677b7e5462a'] as const;
const GRAPHSENSE = ['graphsense/graphsense-tagpacks', '29ff93c8ab0db37370453a290b7becba429b73f8'] as const;
const FORTA = ['forta-network/labelled-datasets', '40a9c2f2bd7e9ddfdd0f3540db589f0288e1e88a'] as const;
const MEW = ['MyEtherWallet/ethereum-lists', '6e54ae2dd9e6e9e13b4305e6f611e618df3164e6'] as const;
const TOKENS = ['ethereum-lists/tokens', '55622d80c18cc5cabaa8cb9a4c4214daaa9cf05e'] as const;
const TRUST = ['trustwallet/assets', 'ae55cb498404456da9293c4493bf7bd4220829a1'] as const;

const WALLET_LIST_FILES = [
  '1_Complete',
  '2_Tron',
  '3_Bitcoin',
  '4_Ethereum',
  '5_Ripple',
  '6_Solana',
  '7_Binance Smart Chain',
  '8_Unrecognized_Blockchain',
];
/** Upstream names one file with spaces ("7_Binance Smart Chain_…"); the local layout uses underscores. */
const walletListLocal = (name: string): string => `${name.replaceAll(' ', '_')}_Sanctioned_Wallet_List.txt`;

export const SOURCE_CATALOG: readonly CatalogEntry[] = [
  {
    descriptor: {
      slug: 'ofac_sdn',
      class: 'sanctions_registry',
      jurisdiction: 'US',
      trustWeight: 100,
      publicName: 'OFAC SDN List',
      url: 'https://ofac.treasury.gov/specially-designated-nationals-and-blocked-persons-list-sdn-human-readable-lists',
    },
    folder: 'ofac-sdn-official',
    files: [{ match: /^sdn_advanced.*\.xml$/i, parse: parseOfacSdnAdvanced }],
    upstreamUrl: () => `${OFAC_EXPORTS}SDN_ADVANCED.XML`,
    upstream: { files: [{ path: 'SDN_ADVANCED.XML', url: `${OFAC_EXPORTS}SDN_ADVANCED.XML` }] },
  },
  {
    descriptor: {
      slug: 'ofac_sdn_csv',
      class: 'sanctions_registry',
      jurisdiction: 'US',
      trustWeight: 100,
      publicName: 'OFAC SDN List (legacy SDN.CSV)',
      url: 'https://ofac.treasury.gov/specially-designated-nationals-and-blocked-persons-list-sdn-human-readable-lists',
    },
    folder: 'ofac-sdn-official',
    files: [{ match: /^sdn\.csv$/i, parse: parseOfacSdnCsv, encoding: 'latin1' }],
    upstreamUrl: () => `${OFAC_EXPORTS}SDN.CSV`,
    upstream: { files: [{ path: 'SDN.CSV', url: `${OFAC_EXPORTS}SDN.CSV` }] },
    supersededBy: 'ofac_sdn',
  },
  {
    descriptor: {
      slug: 'ofac_brave_lists',
      class: 'sanctions_registry',
      jurisdiction: 'US',
      trustWeight: 90,
      publicName: 'OFAC addresses by asset (brave-intl)',
      url: 'https://github.com/brave-intl/ofac-sanctioned-digital-currency-addresses',
    },
    folder: 'ofac-brave-intl-lists',
    files: [{ match: /^sanctioned_addresses_[A-Z0-9]+\.(txt|json)$/, parse: parseBraveOfacList }],
    upstreamUrl: github(...BRAVE),
    upstream: {
      githubTrees: [{ repo: BRAVE[0], commit: BRAVE[1], dir: '', select: /^sanctioned_addresses_[A-Z0-9]+\.(txt|json)$/ }],
      revision: BRAVE[1],
    },
  },
  {
    descriptor: {
      slug: 'ofac_ultrasound',
      class: 'sanctions_registry',
      jurisdiction: 'US',
      trustWeight: 90,
      publicName: 'OFAC Ethereum addresses (ultrasound.money)',
      url: 'https://github.com/ultrasoundmoney/ofac-ethereum-addresses',
    },
    folder: 'ofac-ultrasoundmoney-eth',
    files: [{ match: /^data\.csv$/, parse: parseUltrasoundOfac }],
    upstreamUrl: github(...ULTRASOUND),
    upstream: { files: githubFiles(...ULTRASOUND, { 'data.csv': 'data.csv' }), revision: ULTRASOUND[1] },
  },
  {
    descriptor: {
      slug: 'ofac_wallet_lists',
      class: 'sanctions_registry',
      jurisdiction: 'US',
      trustWeight: 90,
      publicName: 'OFAC wallet lists by chain (1020-1795)',
      url: 'https://github.com/1020-1795/OFAC_SDN_Wallet_List',
    },
    folder: 'ofac-1020-1795-wallet-lists',
    files: [{ match: /^\d+_.*_Sanctioned_Wallet_List\.txt$/, parse: parseOfacWalletList }],
    // The local copy renamed "7_Binance Smart Chain_…" to underscores; upstream keeps the spaces.
    upstreamUrl: (path) =>
      github(...WALLET_LISTS, 'OFAC_Sanctioned_Wallet_Lists/')(path.replace('Binance_Smart_Chain', 'Binance Smart Chain')),
    // Fixed names: the upstream folder also keeps stale numbered files of older runs.
    upstream: {
      files: WALLET_LIST_FILES.map((name) => ({
        path: walletListLocal(name),
        url: githubRaw(...WALLET_LISTS, `OFAC_Sanctioned_Wallet_Lists/${name}_Sanctioned_Wallet_List.txt`),
      })),
      revision: WALLET_LISTS[1],
    },
  },
  {
    descriptor: {
      slug: 'graphsense',
      class: 'curator',
      trustWeight: 80,
      publicName: 'GraphSense TagPacks',
      url: 'https://github.com/graphsense/graphsense-tagpacks',
    },
    folder: 'graphsense-tagpacks',
    files: [{ match: /^[^/]+\.(json|ya?ml)$/, parse: parseGraphsenseTagpack }],
    // Upstream packs are YAML; ../shared/data holds their JSON conversion under the same name.
    upstreamUrl: (path) => github(...GRAPHSENSE, 'packs/')(path.replace(/\.json$/, '.yaml')),
    upstream: {
      githubTrees: [{ repo: GRAPHSENSE[0], commit: GRAPHSENSE[1], dir: 'packs', select: /^[^/]+\.yaml$/ }],
      revision: GRAPHSENSE[1],
    },
  },
  {
    descriptor: {
      slug: 'etherscan_forta',
      class: 'block_explorer',
      trustWeight: 70,
      publicName: 'Etherscan labels (Forta labelled datasets)',
      url: 'https://github.com/forta-network/labelled-datasets',
    },
    folder: 'forta-labelled-datasets',
    files: [{ match: /^\d+\/[^/]+\.csv$/, parse: parseFortaLabels }],
    upstreamUrl: github(...FORTA, 'labels/'),
    upstream: {
      files: githubFiles(
        ...FORTA,
        Object.fromEntries(
          [
            '1/etherscan_malicious_labels.csv',
            '1/phishing_scams.csv',
            '1/malicious_smart_contracts.csv',
            '10/malicious_smart_contracts.csv',
          ].map((path) => [path, `labels/${path}`]),
        ),
      ),
      revision: FORTA[1],
    },
  },
  {
    descriptor: {
      slug: 'mew_darklist',
      class: 'community_feed',
      trustWeight: 50,
      publicName: 'MyEtherWallet address lists',
      url: 'https://github.com/MyEtherWallet/ethereum-lists',
    },
    folder: 'mew-ethereum-lists',
    // urls-*.json name domains, not addresses: nothing to screen an address against.
    files: [{ match: /^addresses-(dark|light)list\.json$/, parse: parseMewAddresses }],
    upstreamUrl: github(...MEW, 'src/addresses/'),
    upstream: {
      files: githubFiles(...MEW, {
        'addresses-darklist.json': 'src/addresses/addresses-darklist.json',
        'addresses-lightlist.json': 'src/addresses/addresses-lightlist.json',
      }),
      revision: MEW[1],
    },
  },
  {
    descriptor: {
      slug: 'ethereum_lists_tokens',
      class: 'community_feed',
      trustWeight: 60,
      publicName: 'ethereum-lists tokens',
      url: 'https://github.com/ethereum-lists/tokens',
    },
    folder: 'tokens-ethereum-lists',
    files: [{ match: /^[a-z]+\/0x[0-9a-fA-F]{40}\.json$/, parse: parseEthereumListsToken }],
    upstreamUrl: github(...TOKENS, 'tokens/'),
    upstream: {
      githubTrees: [{ repo: TOKENS[0], commit: TOKENS[1], dir: 'tokens', select: /^(eth|bsc)\/0x[0-9a-fA-F]{40}\.json$/ }],
      revision: TOKENS[1],
    },
  },
  {
    descriptor: {
      slug: 'trustwallet_tokens',
      class: 'community_feed',
      trustWeight: 60,
      publicName: 'Trust Wallet assets',
      url: 'https://github.com/trustwallet/assets',
    },
    folder: 'tokens-trustwallet-2021',
    files: [{ match: /^((ethereum|smartchain)\/tokenlist|tron\/(assets\/[^/]+|info)\/info)\.json$/, parse: parseTrustwalletTokens }],
    upstreamUrl: github(...TRUST, 'blockchains/'),
    upstream: {
      files: githubFiles(
        ...TRUST,
        Object.fromEntries(
          ['ethereum/tokenlist.json', 'smartchain/tokenlist.json', 'tron/info/info.json'].map((path) => [path, `blockchains/${path}`]),
        ),
      ),
      githubTrees: [
        { repo: TRUST[0], commit: TRUST[1], dir: 'blockchains/tron/assets', select: /^[^/]+\/info\.json$/, into: 'tron/assets' },
      ],
      revision: TRUST[1],
    },
  },
  {
    descriptor: {
      slug: 'ofsi_uk',
      class: 'sanctions_registry',
      jurisdiction: 'UK',
      trustWeight: 100,
      publicName: 'UK OFSI Consolidated List',
      url: 'https://www.gov.uk/government/publications/financial-sanctions-consolidated-list-of-targets',
    },
    folder: 'ofsi-uk-consolidated',
    files: [{ match: /^conlist.*\.csv$/i, parse: parseOfsiConList }],
    upstreamUrl: () => OFSI_CONLIST,
    upstream: { files: [{ path: 'ConList.csv', url: OFSI_CONLIST }] },
  },
  {
    descriptor: {
      slug: 'eu_fsf',
      class: 'sanctions_registry',
      jurisdiction: 'EU',
      trustWeight: 100,
      publicName: 'EU Consolidated Financial Sanctions List',
      url: 'https://data.europa.eu/data/datasets/consolidated-list-of-persons-groups-and-entities-subject-to-eu-financial-sanctions',
    },
    folder: 'eu-fsf-consolidated',
    files: [{ match: /^.*\.xml$/i, parse: parseEuFsfXml }],
    upstreamUrl: () => EU_FSF_XML,
    upstream: { files: [{ path: 'xmlFullSanctionsList_1_1.xml', url: EU_FSF_XML }] },
  },
];
