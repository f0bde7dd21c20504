import { readFile } from 'node:fs/promises';
import { screenVerdictOf } from '../../commands/screen-address.js';
import { presentScreenVerdict } from '../../read-api/presenters/screen.presenter.js';
import type { ContractCodeReader } from '../../domain/ports/contract-code.port.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import { isAddressOf, normalizeAddress } from '../../domain/shared/address.js';
import { fail } from '../../domain/shared/errors.js';
import { parseNetwork, type Network } from '../../domain/shared/network.js';
import { rpcContractCodeReader } from '../chain/rpc-contract-code.js';
import { systemClock } from '../system/system-clock.js';
import { importFromDirectory } from '../sources/import-sources.js';
import { flag, requiredFlag } from './args.js';
import type { VerbTable } from './verb.js';

/**
 * `screen --network <net> [--file PATH] [ADDRESS…]`: the light screen for analysts, one JSON object
 * per line (JSON Lines): the body POST /v2/screen returns, without billing and without a charge.
 * A file holds one address per line; blank lines, `#` comments and a CSV's header are skipped, and
 * only the first field of a CSV line is read. A malformed address gets a line with an `error`.
 */

function addressesOfFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => (line.split(/[,\s]/)[0] ?? '').replace(/^"|"$/g, ''))
    .filter((first) => first.toLowerCase() !== 'address');
}

export async function screenLine(intel: IntelIndex, contracts: ContractCodeReader | null, raw: string, network: Network): Promise<object> {
  const started = performance.now();
  const address = normalizeAddress(raw);
  if (!isAddressOf(network, address)) {
    return { address: raw, network, error: { code: 'validation_error', message: `not a well-formed ${network} address` } };
  }
  // the body of POST /v2/screen without its billing: shaped by the same presenter
  const { body } = presentScreenVerdict(
    await screenVerdictOf(contracts ? { intel, contracts, clock: systemClock } : { intel, clock: systemClock }, { address, network }),
  );
  return { ...body, elapsed_ms: Math.round(performance.now() - started) };
}

export const SCREEN_VERBS: VerbTable<'commands' | 'config' | 'intel' | 'projections'> = {
  async screen(services, args) {
    const network = parseNetwork(requiredFlag(args, 'network'));
    if (!network) throw fail('unsupported_network', '--network is one of BSC, ETH, TRON');
    const file = flag(args, 'file');
    const addresses = [...args.words.slice(1), ...(file ? addressesOfFile(await readFile(file, 'utf8')) : [])];
    if (addresses.length === 0) throw fail('bad_request', 'usage: screen --network <ETH|BSC|TRON> [--file PATH] [ADDRESS…]');
    // A fresh data directory with SVC_SOURCES_DIR: import it first (later changes: `data sync --from-dir`).
    if (services.config.SVC_SOURCES_DIR && services.intel.datasets().length === 0) {
      await importFromDirectory(services.commands, services.config.SVC_SOURCES_DIR);
      await services.projections.whenCaughtUp();
    }
    const { SVC_RPC_URL_ETH: ETH, SVC_RPC_URL_BSC: BSC } = services.config;
    const contracts = ETH || BSC ? rpcContractCodeReader({ rpcUrls: { ...(ETH ? { ETH } : {}), ...(BSC ? { BSC } : {}) } }) : null;
    const jsonLines: object[] = [];
    for (const address of addresses) jsonLines.push(await screenLine(services.intel, contracts, address, network));
    return { exitCode: jsonLines.some((line) => 'error' in line) ? 1 : 0, output: { screened: jsonLines.length }, jsonLines };
  },
};
