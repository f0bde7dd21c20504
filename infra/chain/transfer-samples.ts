import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseUnits } from 'viem';
import type { AssetRef, Prices } from '../../domain/ports/prices.port.js';
import { valueInMicros } from '../../domain/ports/prices.port.js';
import { isEvmAddress, isTronAddress as checkTronAddress } from '../../domain/shared/address.js';
import type { Network } from '../../domain/shared/network.js';
import { csvObjects } from '../sources/csv.js';
import { malformed } from '../sources/parsed-file.js';
import type { GraphTransfer, TransferGraphStore } from '../../domain/ports/transfer-graph.port.js';

/**
 * The real transfer samples of the sources directory (see ../shared/data/SOURCES.md), valued in USD at
 * the time of each transfer with the Prices port:
 *
 * - `tx-sample-eth-lazarus/LazarusTabularTxs*.csv`: native ETH to and from the OFAC-listed Lazarus
 *   addresses (Dune export, Mar–Apr 2022). No transaction hashes: a path shows addresses, never a hash.
 * - `tx-sample-tron/Large_JST_Transactions_*.csv`: JST transfers, token named by its contract: priced.
 * - `tx-sample-tron/Transfers_*.csv` (Tronscan exports): the token is not named. Where `quant` carries 18
 *   decimals the source notes suggest JST, unverified: valued as JST and marked estimated, so every USD
 *   figure resting on them says so. Other unnamed amounts (the file of transfers sent to the USDT
 *   contract itself, 6 decimals, asset not stated) stay unpriced: counted, never valued.
 * Rows that are not confirmed successes or whose addresses are malformed are skipped and counted.
 */

export interface TransferSample {
  readonly network: Network;
  readonly name: string;
  readonly caveat: string;
  /** `sha256:` of the file's bytes: the sample's version, as verdicts name it. */
  readonly contentHash: string;
  readonly transfers: readonly GraphTransfer[];
  readonly skipped: number;
}

interface RawTransfer {
  readonly from: string;
  readonly to: string;
  readonly at: number;
  readonly amount: string;
  readonly decimals: number;
  /** null: the asset is not known, the transfer stays unpriced. */
  readonly asset: AssetRef | null;
  readonly estimated: boolean;
  readonly txHash: string | null;
}

/** The samples repeat addresses a lot; base58check costs two SHA-256 each. */
const tronChecked = new Map<string, boolean>();
function isTronAddress(address: string): boolean {
  let valid = tronChecked.get(address);
  if (valid === undefined) tronChecked.set(address, (valid = checkTronAddress(address)));
  return valid;
}

const ETH_NATIVE: AssetRef = { network: 'ETH', token: null };
const JST: AssetRef = { network: 'TRON', token: 'TCFLL5dx5ZJdKnWuesXxi1VPwjLVmWZZy9' };
const TRON_SYMBOLS: Readonly<Record<string, AssetRef>> = {
  JST,
  USDT: { network: 'TRON', token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
  TRX: { network: 'TRON', token: null },
};

/** A decimal amount as the exports write it ("0.5", "1e-05") in whole units. */
function decimalText(value: string): string | null {
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return trimmed;
  const number = Number(trimmed);
  return Number.isFinite(number) && number >= 0 ? number.toFixed(18) : null;
}

export function parseLazarusTransfers(text: string, file: string): { rows: RawTransfer[]; skipped: number } {
  const rows: RawTransfer[] = [];
  let skipped = 0;
  for (const { row, line } of csvObjects(text, file, ['block_time', 'from', 'to', 'total_eth'])) {
    const from = row.from.replace(/^\\x/, '0x').toLowerCase();
    const to = row.to.replace(/^\\x/, '0x').toLowerCase();
    const at = Date.parse(row.block_time);
    const amount = decimalText(row.total_eth);
    if (Number.isNaN(at)) throw malformed(file, `line ${line}`, 'block_time is not a timestamp');
    if (!isEvmAddress(from) || !isEvmAddress(to) || amount === null) {
      skipped += 1;
      continue;
    }
    rows.push({ from, to, at, amount, decimals: 18, asset: ETH_NATIVE, estimated: false, txHash: null });
  }
  return { rows, skipped };
}

export function parseLargeJstTransfers(text: string, file: string): { rows: RawTransfer[]; skipped: number } {
  const rows: RawTransfer[] = [];
  let skipped = 0;
  for (const { row } of csvObjects(text, file, ['fromAddress', 'contractAddress', 'toAddress', 'amount', 'dateTime', 'hash'])) {
    const amount = decimalText(row.amount);
    const at = Number(row.dateTime);
    if (
      !isTronAddress(row.fromAddress) ||
      !isTronAddress(row.toAddress) ||
      !isTronAddress(row.contractAddress) ||
      amount === null ||
      !Number.isFinite(at)
    ) {
      skipped += 1;
      continue;
    }
    const asset: AssetRef = { network: 'TRON', token: row.contractAddress };
    rows.push({ from: row.fromAddress, to: row.toAddress, at, amount, decimals: 18, asset, estimated: false, txHash: row.hash || null });
  }
  return { rows, skipped };
}

export function parseTronscanTransfers(text: string, file: string): { rows: RawTransfer[]; skipped: number } {
  const header = [
    'transaction_id',
    'block',
    'block_ts',
    'from_address',
    'to_address',
    'confirmed',
    'contractRet',
    'quant',
    'tokenAbbr',
  ] as const;
  const rows: RawTransfer[] = [];
  let skipped = 0;
  for (const { row } of csvObjects(text, file, header)) {
    const at = Date.parse(`${row.block_ts.trim().replace(/\//g, '-').replace(' ', 'T')}Z`);
    const quant = row.quant.trim();
    const ok = row.confirmed === 'true' && row.contractRet === 'SUCCESS';
    if (!ok || !isTronAddress(row.from_address) || !isTronAddress(row.to_address) || !/^\d+(\.\d+)?$/.test(quant) || Number.isNaN(at)) {
      skipped += 1;
      continue;
    }
    const named = TRON_SYMBOLS[row.tokenAbbr.trim().toUpperCase()];
    const decimalsWritten = quant.split('.')[1]?.length ?? 0;
    const assumedJst = !named && decimalsWritten === 18;
    rows.push({
      from: row.from_address,
      to: row.to_address,
      at,
      amount: quant,
      decimals: Math.max(decimalsWritten, 0),
      asset: named ?? (assumedJst ? JST : null),
      estimated: assumedJst,
      txHash: row.transaction_id || null,
    });
  }
  return { rows, skipped };
}

const CAVEATS = {
  lazarus:
    'Dune export of native-ETH transfers to and from the OFAC-listed Lazarus addresses (2022-03/04); no transaction hashes; valued at the snapshot ETH level of the month',
  largeJst: 'Tronscan export of large JST transfers (token named by contract), valued at the snapshot JST level of the month',
  tronscan:
    'Tronscan export whose token is not named: 18-decimal amounts valued as JST (assumed from the source notes, unverified, marked estimated); other amounts unpriced',
} as const;

async function value(rows: readonly RawTransfer[], prices: Prices): Promise<GraphTransfer[]> {
  const quotes = new Map<string, Awaited<ReturnType<Prices['quote']>>>();
  const out: GraphTransfer[] = [];
  for (const [position, row] of rows.entries()) {
    let usdMicros: number | null = null;
    if (row.asset) {
      const day = new Date(row.at).toISOString().slice(0, 10);
      const key = `${row.asset.network}|${row.asset.token}|${day}`;
      if (!quotes.has(key)) quotes.set(key, await prices.quote(row.asset, new Date(row.at)));
      const quote = quotes.get(key);
      if (quote) usdMicros = valueInMicros(parseUnits(row.amount, row.decimals), row.decimals, quote);
    }
    out.push({
      from: row.from,
      to: row.to,
      at: row.at,
      usdMicros,
      estimated: row.estimated && usdMicros !== null,
      txHash: row.txHash,
      position,
    });
  }
  return out;
}

const FILES: readonly { folder: string; match: RegExp; network: Network; caveat: string; parse: typeof parseLazarusTransfers }[] = [
  {
    folder: 'tx-sample-eth-lazarus',
    match: /^LazarusTabularTxs.*\.csv$/,
    network: 'ETH',
    caveat: CAVEATS.lazarus,
    parse: parseLazarusTransfers,
  },
  {
    folder: 'tx-sample-tron',
    match: /^Large_JST_Transactions.*\.csv$/,
    network: 'TRON',
    caveat: CAVEATS.largeJst,
    parse: parseLargeJstTransfers,
  },
  { folder: 'tx-sample-tron', match: /^Transfers_.*\.csv$/, network: 'TRON', caveat: CAVEATS.tronscan, parse: parseTronscanTransfers },
];

/** The sample files under the sources directory; missing folders are simply absent. */
async function sampleFiles(sourcesDir: string): Promise<{ spec: (typeof FILES)[number]; file: string; path: string }[]> {
  const found: { spec: (typeof FILES)[number]; file: string; path: string }[] = [];
  for (const spec of FILES) {
    const names = await readdir(join(sourcesDir, spec.folder)).catch(() => [] as string[]);
    for (const name of names.filter((n) => spec.match.test(n)).sort())
      found.push({ spec, file: `${spec.folder}/${name}`, path: join(sourcesDir, spec.folder, name) });
  }
  return found;
}

async function loadSample(spec: (typeof FILES)[number], file: string, path: string, prices: Prices): Promise<TransferSample> {
  const bytes = await readFile(path);
  const { rows, skipped } = spec.parse(bytes.toString('utf8'), file);
  const contentHash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  return { network: spec.network, name: file, caveat: spec.caveat, contentHash, transfers: await value(rows, prices), skipped };
}

/** Every transfer sample found under the sources directory, parsed and valued. */
export async function loadTransferSamples(sourcesDir: string, prices: Prices): Promise<TransferSample[]> {
  const samples: TransferSample[] = [];
  for (const { spec, file, path } of await sampleFiles(sourcesDir)) samples.push(await loadSample(spec, file, path, prices));
  return samples;
}

/**
 * Folds the samples into the graph store, each file as a data set of its own rows; a file folded before and
 * unchanged since (same size and time) is not read again, so a start does not pay for them twice.
 */
export async function foldTransferSamples(
  sourcesDir: string,
  prices: Prices,
  graph: TransferGraphStore,
): Promise<{ files: number; folded: number }> {
  let folded = 0;
  let files = 0;
  for (const { spec, file, path } of await sampleFiles(sourcesDir)) {
    const { size, mtimeMs } = await stat(path);
    const version = `${size}:${mtimeMs}`;
    if ((await graph.readSource(`sample:${file}`)) === version) continue;
    const sample = await loadSample(spec, file, path, prices);
    const batch = {
      network: sample.network,
      dataset: file,
      caveat: spec.caveat,
      kind: 'sample',
      version: sample.contentHash,
      positions: 'rows',
      finalThrough: null,
    } as const;
    folded += (await graph.fold([{ ...batch, transfers: sample.transfers }])).folded;
    await graph.writeSource(`sample:${file}`, version);
    files += 1;
  }
  return { files, folded };
}
