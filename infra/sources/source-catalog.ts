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
  /** Upstream URL of a file, from its path under the folder. */
  readonly upstreamUrl: (path: string) => string;
  /**
   * An older or less complete publication of the same list as another source: its designations count
   * only where that source (when imported) also lists the address. OFAC publishes SDN.CSV beside
   * SDN_ADVANCED.XML and the CSV truncates long remarks, so a CSV-only address is a stale designation.
   */
  readonly supersededBy?: string;
}

const github = (repository: string, commit: string, prefix = '') => (path: string): string =>
  `https://raw.githubusercontent.com/${repository}/${commit}/${prefix}${path.split('/').map(encodeURIComponent).join('/')}`;

const OFAC_EXPORTS = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/';

export const SOURCE_CATALOG: readonly CatalogEntry[] = [
  {
    descriptor: { slug: 'ofac_sdn', class: 'sanctions_registry', trustWeight: 100, publicName: 'OFAC SDN List', url: 'https://ofac.treasury.gov/specially-designated-nationals-and-blocked-persons-list-sdn-human-readable-lists' },
    folder: 'ofac-sdn-official',
    files: [{ match: /^sdn_advanced.*\.xml$/i, parse: parseOfacSdnAdvanced }],
    upstreamUrl: () => `${OFAC_EXPORTS}SDN_ADVANCED.XML`,
  },
  {
    descriptor: { slug: 'ofac_sdn_csv', class: 'sanctions_registry', trustWeight: 100, publicName: 'OFAC SDN List (legacy SDN.CSV)', url: 'https://ofac.treasury.gov/specially-designated-nationals-and-blocked-persons-list-sdn-human-readable-lists' },
    folder: 'ofac-sdn-official',
    files: [{ match: /^sdn\.csv$/i, parse: parseOfacSdnCsv, encoding: 'latin1' }],
    upstreamUrl: () => `${OFAC_EXPORTS}SDN.CSV`,
    supersededBy: 'ofac_sdn',
  },
  {
    descriptor: { slug: 'ofac_brave_lists', class: 'sanctions_registry', trustWeight: 90, publicName: 'OFAC addresses by asset (brave-intl)', url: 'https://github.com/brave-intl/ofac-sanctioned-digital-currency-addresses' },
    folder: 'ofac-brave-intl-lists',
    files: [{ match: /^sanctioned_addresses_[A-Z0-9]+\.(txt|json)$/, parse: parseBraveOfacList }],
    upstreamUrl: github('brave-intl/ofac-sanctioned-digital-currency-addresses', '9680d788291780da92da1ccfdba507e3174367a8'),
  },
  {
    descriptor: { slug: 'ofac_ultrasound', class: 'sanctions_registry', trustWeight: 90, publicName: 'OFAC Ethereum addresses (ultrasound.money)', url: 'https://github.com/ultrasoundmoney/ofac-ethereum-addresses' },
    folder: 'ofac-ultrasoundmoney-eth',
    files: [{ match: /^data\.csv$/, parse: parseUltrasoundOfac }],
    upstreamUrl: github('ultrasoundmoney/ofac-ethereum-addresses', '74a24ed22a73225b5f3a70f84f989b814e8ff627'),
  },
  {
    descriptor: { slug: 'ofac_wallet_lists', class: 'sanctions_registry', trustWeight: 90, publicName: 'OFAC wallet lists by chain (1020-1795)', url: 'https://github.com/1020-1795/OFAC_SDN_Wallet_List' },
    folder: 'ofac-1020-1795-wallet-lists',
    files: [{ match: /^\d+_.*_Sanctioned_Wallet_List\.txt$/, parse: parseOfacWalletList }],
    // The local copy renamed "7_Binance Smart Chain_…" to underscores; upstream keeps the spaces.
    upstreamUrl: (path) =>
      github('1020-1795/OFAC_SDN_Wallet_List', '8817cdb478c2d7d78b7fea5375e36677b7e5462a', 'OFAC_Sanctioned_Wallet_Lists/')(
        path.replace('Binance_Smart_Chain', 'Binance Smart Chain'),
      ),
  },
  {
    descriptor: { slug: 'graphsense', class: 'curator', trustWeight: 80, publicName: 'GraphSense TagPacks', url: 'https://github.com/graphsense/graphsense-tagpacks' },
    folder: 'graphsense-tagpacks',
    files: [{ match: /^[^/]+\.json$/, parse: parseGraphsenseTagpack }],
    // Upstream packs are YAML; the folder holds their JSON conversion under the same name.
    upstreamUrl: (path) => github('graphsense/graphsense-tagpacks', '29ff93c8ab0db37370453a290b7becba429b73f8', 'packs/')(path.replace(/\.json$/, '.yaml')),
  },
  {
    descriptor: { slug: 'etherscan_forta', class: 'block_explorer', trustWeight: 70, publicName: 'Etherscan labels (Forta labelled datasets)', url: 'https://github.com/forta-network/labelled-datasets' },
    folder: 'forta-labelled-datasets',
    files: [{ match: /^\d+\/[^/]+\.csv$/, parse: parseFortaLabels }],
    upstreamUrl: github('forta-network/labelled-datasets', '40a9c2f2bd7e9ddfdd0f3540db589f0288e1e88a', 'labels/'),
  },
  {
    descriptor: { slug: 'mew_darklist', class: 'community_feed', trustWeight: 50, publicName: 'MyEtherWallet address lists', url: 'https://github.com/MyEtherWallet/ethereum-lists' },
    folder: 'mew-ethereum-lists',
    // urls-*.json name domains, not addresses: nothing to screen an address against.
    files: [{ match: /^addresses-(dark|light)list\.json$/, parse: parseMewAddresses }],
    upstreamUrl: github('MyEtherWallet/ethereum-lists', '6e54ae2dd9e6e9e13b4305e6f611e618df3164e6', 'src/addresses/'),
  },
  {
    descriptor: { slug: 'ethereum_lists_tokens', class: 'community_feed', trustWeight: 60, publicName: 'ethereum-lists tokens', url: 'https://github.com/ethereum-lists/tokens' },
    folder: 'tokens-ethereum-lists',
    files: [{ match: /^[a-z]+\/0x[0-9a-fA-F]{40}\.json$/, parse: parseEthereumListsToken }],
    upstreamUrl: github('ethereum-lists/tokens', '55622d80c18cc5cabaa8cb9a4c4214daaa9cf05e', 'tokens/'),
  },
  {
    descriptor: { slug: 'trustwallet_tokens', class: 'community_feed', trustWeight: 60, publicName: 'Trust Wallet assets', url: 'https://github.com/trustwallet/assets' },
    folder: 'tokens-trustwallet-2021',
    files: [{ match: /^((ethereum|smartchain)\/tokenlist|tron\/(assets\/[^/]+|info)\/info)\.json$/, parse: parseTrustwalletTokens }],
    upstreamUrl: github('trustwallet/assets', 'ae55cb498404456da9293c4493bf7bd4220829a1', 'blockchains/'),
  },
];
