import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../domain/shared/errors.js';
import { startJsonServer, type JsonReply, type JsonRequest } from '../../test/support/json-server.js';
import { freePort } from '../../test/support/processes.js';
import { tronBase58ToHex, tronHexToBase58 } from './tron-address.js';
import { tronHttpDecoder } from './tron-http-decoder.js';

/**
 * The TRON adapter against recorded responses of the TRON HTTP API (test/fixtures/tron, written in the
 * documented formats of /wallet/gettransactionbyid, /wallet/gettransactioninfobyid and
 * /wallet/triggerconstantcontract, with made-up addresses), served on 127.0.0.1.
 */
type Recorded = { gettransactionbyid: unknown; gettransactioninfobyid: unknown; triggerconstantcontract?: Record<string, unknown> };
const load = (name: string): Recorded => JSON.parse(readFileSync(join(import.meta.dirname, '../../test/fixtures/tron', `${name}.json`), 'utf8')) as Recorded;
const RECORDED = ['trx-transfer', 'trc20-transfer', 'trc20-reverted'].map(load);
const byTxId = new Map(RECORDED.map((r) => [(r.gettransactionbyid as { txID: string }).txID, r]));
const TRC20 = RECORDED[1]!;
const idOf = (recorded: Recorded) => `0x${(recorded.gettransactionbyid as { txID: string }).txID}`;

let mode: 'recorded' | 'error500' | 'garbled' = 'recorded';
function reply(request: JsonRequest): JsonReply {
  if (mode === 'error500') return { status: 500, text: 'internal error' };
  const body = request.body as Record<string, string>;
  const method = request.url.replace('/wallet/', '');
  if (method === 'triggerconstantcontract') return { json: TRC20.triggerconstantcontract![body.function_selector!] ?? { result: { result: false } } };
  const recorded = byTxId.get(body.value!);
  if (!recorded) return { json: {} };
  if (mode === 'garbled' && method === 'gettransactionbyid') return { json: { txID: body.value, raw_data: { contract: 'not a list' } } };
  return { json: recorded[method as 'gettransactionbyid' | 'gettransactioninfobyid'] };
}

let server: Awaited<ReturnType<typeof startJsonServer>>;
const decoder = () => tronHttpDecoder({ baseUrl: server.url, apiKey: 'test-key', timeoutMs: 2_000 });
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: unknown) => (isServiceError(error) ? error.code : String(error)));

beforeAll(async () => {
  server = await startJsonServer((request) => reply(request));
});
afterAll(() => server.close());

describe('TRON HTTP API adapter on recorded responses', () => {
  it('a TRX TransferContract is one native leg in TRX (6 decimals), addresses in base58', async () => {
    mode = 'recorded';
    const recorded = RECORDED[0]!;
    const value = (recorded.gettransactionbyid as { raw_data: { contract: { parameter: { value: Record<string, string> } }[] } }).raw_data.contract[0]!.parameter.value;
    const tx = await decoder().decode(idOf(recorded));
    expect(tx).toEqual({
      chain: 'TRON',
      txHash: idOf(recorded),
      blockNumber: 49152001,
      blockTime: new Date(1678147203000).toISOString(),
      success: true,
      signer: tronHexToBase58(value.owner_address!),
      to: tronHexToBase58(value.to_address!),
      legs: [{ kind: 'native', token: null, symbol: 'TRX', decimals: 6, from: tronHexToBase58(value.owner_address!), to: tronHexToBase58(value.to_address!), amount: '2500000000', logIndex: null }],
    });
    expect(tx.signer).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(server.requests.at(-1)!.headers['tron-pro-api-key']).toBe('test-key');
  });

  it('a TRC-20 transfer is a token leg from its Transfer log, with decimals and symbol read from the contract', async () => {
    mode = 'recorded';
    const tx = await decoder().decode(idOf(TRC20));
    const log = (TRC20.gettransactioninfobyid as { log: { address: string; topics: string[] }[] }).log[0]!;
    expect(tx.success).toBe(true);
    expect(tx.legs).toEqual([
      {
        kind: 'token',
        token: tronHexToBase58(log.address),
        symbol: 'KYTT',
        decimals: 6,
        from: tronHexToBase58(log.topics[1]!),
        to: tronHexToBase58(log.topics[2]!),
        amount: '1250000000',
        logIndex: 0,
      },
    ]);
    expect(tx.to).toBe(tx.legs[0]!.token);
  });

  it('a reverted TRC-20 call moved nothing: success false, no legs', async () => {
    mode = 'recorded';
    const tx = await decoder().decode(idOf(RECORDED[2]!));
    expect(tx).toMatchObject({ success: false, legs: [] });
  });

  it('an unknown id is tx_not_found; a garbled answer tx_decode_failed; HTTP 500 and a closed port backend_unavailable', async () => {
    mode = 'recorded';
    expect(await codeOf(decoder().decode(`0x${'0'.repeat(64)}`))).toBe('tx_not_found');
    mode = 'garbled';
    expect(await codeOf(decoder().decode(idOf(RECORDED[0]!)))).toBe('tx_decode_failed');
    mode = 'error500';
    expect(await codeOf(decoder().decode(idOf(RECORDED[0]!)))).toBe('backend_unavailable');
    const closed = tronHttpDecoder({ baseUrl: `http://127.0.0.1:${await freePort()}`, timeoutMs: 1_000 });
    expect(await codeOf(closed.decode(idOf(RECORDED[0]!)))).toBe('backend_unavailable');
  });

  it('hex and base58 forms of an address convert both ways', () => {
    const hex = (TRC20.gettransactionbyid as { raw_data: { contract: { parameter: { value: { owner_address: string } } }[] } }).raw_data.contract[0]!.parameter.value.owner_address;
    expect(tronBase58ToHex(tronHexToBase58(hex))).toBe(hex);
    expect(tronHexToBase58(hex.slice(2))).toBe(tronHexToBase58(hex));
    // A public anchor: the USDT TRC-20 contract, whose two forms TRON's documentation gives.
    expect(tronHexToBase58('41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });
});
