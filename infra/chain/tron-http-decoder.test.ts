import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../domain/shared/errors.js';
import { freePort } from '../../test/support/processes.js';
import { RECORDED_TRON, startRecordedTronApi, tronTxId } from '../../test/support/recorded-tron-api.js';
import { tronBase58ToHex, tronHexToBase58 } from './tron-address.js';
import { tronHttpDecoder } from './tron-http-decoder.js';

/**
 * The TRON adapter against recorded responses of the TRON HTTP API (test/support/recorded-tron-api.ts,
 * in the documented formats, made-up addresses), served on 127.0.0.1.
 */
type Contract = { raw_data: { contract: { parameter: { value: Record<string, string> } }[] } };
const valueOf = (recorded: { gettransactionbyid: unknown }) =>
  (recorded.gettransactionbyid as Contract).raw_data.contract[0]!.parameter.value;

let api: Awaited<ReturnType<typeof startRecordedTronApi>>;
const decoder = () => tronHttpDecoder({ baseUrl: api.url, apiKey: 'test-key', timeoutMs: 2_000 });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (isServiceError(error) ? error.code : String(error)),
  );

beforeAll(async () => {
  api = await startRecordedTronApi();
});
afterAll(() => api.close());

describe('TRON HTTP API adapter on recorded responses', () => {
  it('a TRX TransferContract is one native leg in TRX (6 decimals), addresses in base58', async () => {
    api.state.mode = 'recorded';
    const value = valueOf(RECORDED_TRON.trx);
    const tx = await decoder().decode(tronTxId(RECORDED_TRON.trx));
    expect(tx).toEqual({
      chain: 'TRON',
      txHash: tronTxId(RECORDED_TRON.trx),
      blockNumber: 49152001,
      blockTime: new Date(1678147203000).toISOString(),
      success: true,
      signer: tronHexToBase58(value.owner_address!),
      to: tronHexToBase58(value.to_address!),
      legs: [
        {
          kind: 'native',
          token: null,
          symbol: 'TRX',
          decimals: 6,
          from: tronHexToBase58(value.owner_address!),
          to: tronHexToBase58(value.to_address!),
          amount: '2500000000',
          logIndex: null,
        },
      ],
    });
    expect(tx.signer).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(api.requests.at(-1)!.headers['tron-pro-api-key']).toBe('test-key');
  });

  it('a TRC-20 transfer is a token leg from its Transfer log, with decimals and symbol read from the contract', async () => {
    api.state.mode = 'recorded';
    const tx = await decoder().decode(tronTxId(RECORDED_TRON.trc20));
    const log = (RECORDED_TRON.trc20.gettransactioninfobyid as { log: { address: string; topics: string[] }[] }).log[0]!;
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
    api.state.mode = 'recorded';
    expect(await decoder().decode(tronTxId(RECORDED_TRON.reverted))).toMatchObject({ success: false, legs: [] });
  });

  it('an unknown id is tx_not_found; a garbled answer tx_decode_failed; HTTP 500 and a closed port backend_unavailable', async () => {
    api.state.mode = 'recorded';
    expect(await codeOf(decoder().decode(`0x${'0'.repeat(64)}`))).toBe('tx_not_found');
    api.state.mode = 'garbled';
    expect(await codeOf(decoder().decode(tronTxId(RECORDED_TRON.trx)))).toBe('tx_decode_failed');
    api.state.mode = 'error500';
    expect(await codeOf(decoder().decode(tronTxId(RECORDED_TRON.trx)))).toBe('backend_unavailable');
    const closed = tronHttpDecoder({ baseUrl: `http://127.0.0.1:${await freePort()}`, timeoutMs: 1_000 });
    expect(await codeOf(closed.decode(tronTxId(RECORDED_TRON.trx)))).toBe('backend_unavailable');
  });

  it('a TRX transfer without its to_address is tx_decode_failed, not a transfer to the zero address', async () => {
    api.state.mode = 'recorded';
    const noRecipient = structuredClone(RECORDED_TRON.trx);
    noRecipient.gettransactionbyid.txID = 'ab'.repeat(32);
    const recorded: { gettransactionbyid: unknown } = noRecipient;
    const contract = (recorded.gettransactionbyid as Contract).raw_data.contract[0]!;
    const { to_address: _absent, ...rest } = contract.parameter.value;
    contract.parameter.value = rest;
    api.add(noRecipient);
    expect(await codeOf(decoder().decode(tronTxId(noRecipient)))).toBe('tx_decode_failed');
    await expect(decoder().decode(tronTxId(noRecipient))).rejects.toThrow(/TransferContract without a to_address/);
  });

  it('hex and base58 forms of an address convert both ways', () => {
    const hex = valueOf(RECORDED_TRON.trc20).owner_address!;
    expect(tronBase58ToHex(tronHexToBase58(hex))).toBe(hex);
    expect(tronHexToBase58(hex.slice(2))).toBe(tronHexToBase58(hex));
    // A public anchor: the USDT TRC-20 contract, whose two forms TRON's documentation gives.
    expect(tronHexToBase58('41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });
});
