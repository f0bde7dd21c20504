import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOneSource } from '../../infra/sources/import-sources.js';
import { sdnList } from '../helpers/ofac-sdn-list.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Retroactive exposure end to end, on a real (anvil) chain: a transfer from a made-up sender nobody
 * flags is checked clean; a later version of the OFAC SDN list (the official layout, our fixture)
 * designates that sender; the check is re-evaluated under the subgroup's active policy without the
 * chain, a case marked retroactive opens, and the customer's webhook receives tx.policy.alert.triggered
 * with `retroactive: true` and the list version behind it. A transfer nobody designates stays clean.
 */
const party = (name: string) => madeUpEvmAddress(`retroactive:${name}`) as Address;
const SENDER = party('sender');
const BYSTANDER = party('bystander');

let anvil: Anvil;
let dir: string;
let svc: TestService;
let receiver: Receiver;
let customer: { userId: string; apiKey: string };

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  svc.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${customer.apiKey}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

async function importList(day: string, extraAddress?: string) {
  const file = join(dir, 'sdn_advanced.xml');
  await writeFile(file, sdnList(day, extraAddress));
  const [outcome] = await importOneSource(svc.services.commands, 'ofac_sdn', file);
  expect(outcome).toMatchObject({ status: 'imported', version: day });
  await svc.services.whenCaughtUp();
}

async function checkTransfer(from: Address) {
  const txHash = await transferChain(anvil.rpcUrl).sendNative(from, party(`recipient-of-${from}`), '1');
  const response = await call('POST', '/v2/check-transfer', { chain: 'ETH', tx_hash: txHash });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  dir = await mkdtemp(join(tmpdir(), 'svc-retroactive-'));
  svc = await startTestService({ SVC_SOURCES_DIR: dir, CHAIN_RPC_ETH: anvil.rpcUrl, WEBHOOK_ALLOW_LOCAL: '1' });
  customer = await svc.account({ depositUsd: 5 });
  receiver = await startReceiver();
  const subscribed = await call('POST', '/v1/webhooks', {
    url: receiver.url,
    event_types: ['tx.policy.alert.triggered'],
    alert_min_level: 'Low',
  });
  expect(subscribed.statusCode).toBe(201);
  await importList('2026-03-01');
}, 90_000);
afterAll(async () => {
  await svc?.close();
  await receiver?.close();
  await anvil?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('retroactive exposure', () => {
  it('a sanctions list that designates a past sender opens a retroactive case and notifies the subgroup, once', async () => {
    const clean = await checkTransfer(SENDER);
    expect(clean.policy_result.alerts).toEqual([]);
    const untouched = await checkTransfer(BYSTANDER);
    await svc.services.whenCaughtUp();
    expect((await call('GET', '/v2/alerts')).json().alerts).toEqual([]);

    await importList('2026-03-02', SENDER);
    const [notice] = await receiver.waitFor(1);
    expect(notice!.json.event_type).toBe('tx.policy.alert.triggered');
    expect(notice!.json.payload).toMatchObject({
      check_id: clean.check_id,
      worst_level: 'Severe',
      retroactive: true,
      reasons: [{ source: 'ofac_sdn', change: 'dataset_imported', version: '2026-03-02' }],
      alerts: [
        { category: 'Sanctioned entity / address', riskLevel: 'Severe', ruleType: 'Direct exposure', entityAddress: SENDER.toLowerCase() },
      ],
    });
    // The reasons keep the webhook's words, in the order they were always sent (the event records the domain fact).
    const WORDS = ['source', 'change', 'version', 'changed_at'];
    expect(Object.keys((notice!.json.payload.reasons as object[])[0]!)).toEqual(WORDS);

    const cases = (await call('GET', '/v2/alerts')).json().alerts;
    expect(cases).toHaveLength(1);
    expect(Object.keys(cases[0].retroactive.reasons[0])).toEqual(WORDS);
    expect(cases[0]).toMatchObject({
      check_id: clean.check_id,
      alert_index: 0,
      status: 'open',
      risk_level: 'Severe',
      checked_at: clean.checked_at,
      retroactive: {
        change_key: expect.stringMatching(/^dataset:ofac_sdn:/),
        reasons: [{ source: 'ofac_sdn', change: 'dataset_imported', version: '2026-03-02' }],
      },
    });
    // The check's own result is what it was: the alert came later, and says so.
    expect((await call('GET', `/v2/transfer/${clean.check_id}/result`)).json().policy_result.alerts).toEqual([]);

    // The next version still lists the sender: nothing changed for it, nothing is raised again.
    await importList('2026-03-03', SENDER);
    expect((await call('GET', '/v2/alerts')).json().alerts).toHaveLength(1);
    expect(receiver.received.filter((r) => r.json.payload?.check_id === untouched.check_id)).toEqual([]);
    expect(receiver.received).toHaveLength(1);
  });
});
