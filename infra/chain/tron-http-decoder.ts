import { present } from '../../domain/shared/present.js';
import { decodeAbiParameters, type Hex } from 'viem';
import { z } from 'zod';
import { bareTxHash } from '../../domain/kyt/tx-hash.js';
import type { DecodedTransaction, TransferLeg } from '../../domain/kyt/decoded-transaction.js';
import { fail, isServiceError } from '../../domain/shared/errors.js';
import { tronHexToBase58 } from './tron-address.js';

/**
 * Decodes a TRON transaction through the TRON HTTP API (java-tron full node or TronGrid):
 * `/wallet/gettransactionbyid` (the signed contract: TRX TransferContract, TRC-10 TransferAssetContract,
 * TriggerSmartContract) and `/wallet/gettransactioninfobyid` (block, result and the TRC-20 `Transfer`
 * logs). A TRC-20 token's decimals and symbol come from `/wallet/triggerconstantcontract`. Addresses
 * arrive as hex (`41…`, or bare 20 bytes in logs) and leave as base58check.
 */

export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const contractSchema = z.object({
  type: z.string(),
  parameter: z.object({ value: z.record(z.string(), z.unknown()) }),
});
const transactionSchema = z.object({
  txID: z.string(),
  ret: z.array(z.object({ contractRet: z.string().optional() })).optional(),
  raw_data: z.object({ contract: z.array(contractSchema).min(1) }),
});
const infoSchema = z.object({
  id: z.string(),
  blockNumber: z.number().int().nonnegative(),
  blockTimeStamp: z.number().int().nonnegative(),
  receipt: z.object({ result: z.string().optional() }).optional(),
  result: z.string().optional(),
  log: z.array(z.object({ address: z.string(), topics: z.array(z.string()).optional(), data: z.string().optional() })).optional(),
});
const constantSchema = z.object({
  constant_result: z.array(z.string()).optional(),
  result: z.object({ result: z.boolean().optional() }).optional(),
});

export interface TronHttpOptions {
  readonly baseUrl: string;
  /** TronGrid's `TRON-PRO-API-KEY`, when the endpoint wants one. */
  readonly apiKey?: string;
  readonly timeoutMs: number;
}

export function tronHttpDecoder(options: TronHttpOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');

  async function post(path: string, body: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(options.apiKey ? { 'TRON-PRO-API-KEY': options.apiKey } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw fail('backend_unavailable', `the TRON API could not be reached: ${(error as Error).message}`);
    }
    if (!response.ok) throw fail('backend_unavailable', `the TRON API answered HTTP ${response.status} to ${path}`);
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw fail('tx_decode_failed', `the TRON API's answer to ${path} is not JSON`);
    }
  }

  const isEmpty = (value: unknown) => value !== null && typeof value === 'object' && Object.keys(value).length === 0;

  function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
    if (value && typeof value === 'object' && 'Error' in value)
      throw fail('backend_unavailable', `the TRON API refused ${what}: ${String((value as { Error: unknown }).Error)}`);
    const result = schema.safeParse(value);
    if (!result.success)
      throw fail('tx_decode_failed', `unexpected ${what} from the TRON API: ${result.error.issues[0]?.message ?? 'invalid'}`);
    return result.data;
  }

  /** A constant call of a no-argument view on a TRC-20 contract; null when it fails. */
  async function callView(contract: string, selector: string, owner: string): Promise<Hex | null> {
    try {
      const answer = constantSchema.parse(
        await post('/wallet/triggerconstantcontract', {
          owner_address: owner,
          contract_address: contract,
          function_selector: selector,
          parameter: '',
          visible: true,
        }),
      );
      const word = answer.constant_result?.[0];
      return answer.result?.result !== false && word ? (`0x${word}` as Hex) : null;
    } catch {
      return null;
    }
  }

  async function tokenMeta(contract: string, owner: string): Promise<{ symbol: string | null; decimals: number | null }> {
    const [decimalsWord, symbolWord] = await Promise.all([callView(contract, 'decimals()', owner), callView(contract, 'symbol()', owner)]);
    let decimals: number | null = null;
    let symbol: string | null = null;
    try {
      if (decimalsWord) decimals = Number(decodeAbiParameters([{ type: 'uint8' }], decimalsWord)[0]);
    } catch {
      decimals = null;
    }
    try {
      if (symbolWord) symbol = decodeAbiParameters([{ type: 'string' }], symbolWord)[0] || null;
    } catch {
      symbol = null;
    }
    return { symbol, decimals };
  }

  return {
    async decode(txHash: string): Promise<DecodedTransaction> {
      const value = bareTxHash(txHash);
      const [rawTx, rawInfo] = await Promise.all([
        post('/wallet/gettransactionbyid', { value }),
        post('/wallet/gettransactioninfobyid', { value }),
      ]);
      if (isEmpty(rawTx)) throw fail('tx_not_found', `no TRON transaction ${value}`);
      if (isEmpty(rawInfo)) throw fail('tx_not_found', `TRON transaction ${value} is not in a block yet`);
      const tx = parsed(transactionSchema, rawTx, 'transaction');
      const info = parsed(infoSchema, rawInfo, 'transaction info');
      const contract = present(tx.raw_data.contract[0], 'the schema requires at least one contract');
      const params = contract.parameter.value;
      const text = (key: string): string | null => (typeof params[key] === 'string' ? (params[key] as string) : null);
      /** A field this contract type always has: without it the transaction cannot be read (not '', which reads as the zero address). */
      const required = (key: string): string => {
        const found = text(key);
        if (!found) throw fail('tx_decode_failed', `TRON ${contract.type} without a ${key}`);
        return found;
      };
      const amount = (key: string): bigint =>
        BigInt(typeof params[key] === 'number' || typeof params[key] === 'string' ? (params[key] as number | string) : 0);
      const owner = text('owner_address');
      if (!owner) throw fail('tx_decode_failed', `TRON ${contract.type} without an owner_address`);
      const signer = tronHexToBase58(owner);
      const contractRet = tx.ret?.[0]?.contractRet ?? 'SUCCESS';
      const success = contractRet === 'SUCCESS' && (info.receipt?.result ?? 'SUCCESS') === 'SUCCESS' && info.result !== 'FAILED';
      const legs: TransferLeg[] = [];
      let to: string | null = null;
      try {
        if (contract.type === 'TransferContract') {
          to = tronHexToBase58(required('to_address'));
          if (success) legs.push(nativeLeg(signer, to, amount('amount')));
        } else if (contract.type === 'TransferAssetContract') {
          to = tronHexToBase58(required('to_address'));
          const assetId = Buffer.from(required('asset_name'), 'hex').toString('utf8');
          if (success)
            legs.push({
              kind: 'token',
              token: assetId,
              symbol: null,
              decimals: null,
              from: signer,
              to,
              amount: amount('amount').toString(),
              logIndex: null,
            });
        } else if (contract.type === 'TriggerSmartContract') {
          to = tronHexToBase58(required('contract_address'));
          if (success && amount('call_value') > 0n) legs.push(nativeLeg(signer, to, amount('call_value')));
          if (success) legs.push(...(await tokenLegs(info.log ?? [], signer)));
        }
      } catch (error) {
        throw isServiceError(error)
          ? error
          : fail('tx_decode_failed', `TRON ${contract.type} could not be decoded: ${(error as Error).message}`);
      }
      return {
        chain: 'TRON',
        txHash: `0x${tx.txID.toLowerCase()}`,
        blockNumber: info.blockNumber,
        blockTime: new Date(info.blockTimeStamp).toISOString(),
        success,
        signer,
        to,
        legs,
      };
    },
  };

  async function tokenLegs(
    logs: readonly { address: string; topics?: string[] | undefined; data?: string | undefined }[],
    signer: string,
  ): Promise<TransferLeg[]> {
    const transfers = logs
      .map((log, logIndex) => ({ log, logIndex }))
      .filter(
        ({ log }) =>
          log.topics?.length === 3 &&
          present(log.topics[0], 'the filter checked three topics').replace(/^0x/, '').toLowerCase() === TRANSFER_TOPIC &&
          (log.data ?? '').replace(/^0x/, '').length === 64,
      );
    const tokens = [...new Set(transfers.map(({ log }) => tronHexToBase58(log.address)))];
    const metas = new Map(await Promise.all(tokens.map(async (token) => [token, await tokenMeta(token, signer)] as const)));
    return transfers.map(({ log, logIndex }) => {
      const token = tronHexToBase58(log.address);
      const meta = present(metas.get(token), 'every token of the transfers was looked up');
      return {
        kind: 'token',
        token,
        symbol: meta.symbol,
        decimals: meta.decimals,
        from: tronHexToBase58(present(present(log.topics, 'the filter checked three topics')[1], 'the filter checked three topics')),
        to: tronHexToBase58(present(present(log.topics, 'the filter checked three topics')[2], 'the filter checked three topics')),
        amount: BigInt(`0x${present(log.data, 'the filter checked a 32-byte amount').replace(/^0x/, '')}`).toString(),
        logIndex,
      };
    });
  }
}

function nativeLeg(from: string, to: string, amount: bigint): TransferLeg {
  return { kind: 'native', token: null, symbol: 'TRX', decimals: 6, from, to, amount: amount.toString(), logIndex: null };
}
