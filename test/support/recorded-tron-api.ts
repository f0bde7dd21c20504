import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startJsonServer, type JsonReply, type JsonRequest } from './json-server.js';

/**
 * The TRON HTTP API on 127.0.0.1, answering with recorded responses we wrote in its documented formats
 * (test/fixtures/tron: /wallet/gettransactionbyid, /wallet/gettransactioninfobyid and
 * /wallet/triggerconstantcontract; made-up addresses). An unknown id gets `{}`, as the API answers.
 * `mode` makes it fail: HTTP 500, or a transaction whose shape cannot be read.
 */
export type RecordedTron = {
  gettransactionbyid: { txID: string } & Record<string, unknown>;
  gettransactioninfobyid: Record<string, unknown>;
  triggerconstantcontract?: Record<string, unknown>;
};

const load = (name: string): RecordedTron =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'tron', `${name}.json`), 'utf8')) as RecordedTron;

export const RECORDED_TRON = { trx: load('trx-transfer'), trc20: load('trc20-transfer'), reverted: load('trc20-reverted') };
/** A recorded transaction's id in the service's canonical form (`0x` + 64 lowercase hex). */
export const tronTxId = (recorded: RecordedTron): string => `0x${recorded.gettransactionbyid.txID}`;

export async function startRecordedTronApi() {
  const byId = new Map(Object.values(RECORDED_TRON).map((r) => [r.gettransactionbyid.txID, r]));
  const state = { mode: 'recorded' as 'recorded' | 'error500' | 'garbled' };
  function reply(request: JsonRequest): JsonReply {
    if (state.mode === 'error500') return { status: 500, text: 'internal error' };
    const body = request.body as Record<string, string>;
    const method = request.url.replace('/wallet/', '');
    if (method === 'triggerconstantcontract')
      return { json: RECORDED_TRON.trc20.triggerconstantcontract![body.function_selector!] ?? { result: { result: false } } };
    const recorded = byId.get(body.value!);
    if (!recorded) return { json: {} };
    if (state.mode === 'garbled' && method === 'gettransactionbyid')
      return { json: { txID: body.value, raw_data: { contract: 'not a list' } } };
    return { json: recorded[method as 'gettransactionbyid' | 'gettransactioninfobyid'] };
  }
  const server = await startJsonServer((request) => reply(request));
  /** Serves one more transaction (a variant of a recorded one). */
  const add = (recorded: RecordedTron) => void byId.set(recorded.gettransactionbyid.txID, recorded);
  return { ...server, state, add };
}
