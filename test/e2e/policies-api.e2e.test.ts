import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { startAnvil, type Anvil } from '../support/chain/anvil.js';
import { transferChain } from '../support/chain/transfer-chain.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * /v2/policies end to end, on a real (anvil) chain: a subgroup drafts a policy from the standard one,
 * lowers the USD threshold of the indirect-exposure rule I2, activates it, and its next transfer check of
 * a transfer one hop from an exploiter raises High where the standard policy raised only Low; the check
 * names the policy version it applied. A subgroup that changed nothing still applies `standard`, and
 * anyone outside the subgroup gets 404.
 */
const party = (name: string) => madeUpEvmAddress(`policies:${name}`) as Address;
const EXPLOITER = party('exploiter');
const MIDDLE = party('middle');

let anvil: Anvil;
let sources: string;
let svc: TestService;
let owner: { userId: string; apiKey: string };
let stranger: { apiKey: string };
let txHash: string;

const call = (method: 'GET' | 'PATCH' | 'POST', url: string, apiKey: string, payload?: unknown) =>
  svc.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${apiKey}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  sources = await mkdtemp(join(tmpdir(), 'svc-policies-'));
  await mkdir(join(sources, 'graphsense-tagpacks'));
  const pack = {
    title: 'Policy test tags',
    creator: 'Fixture',
    lastmod: '2026-11-01',
    confidence: 'service_data',
    tags: [{ address: EXPLOITER, currency: 'ETH', abuse: 'service_hack', label: 'example exploiter', source: 'https://example.org/x' }],
  };
  await writeFile(join(sources, 'graphsense-tagpacks', 'policies-test.json'), JSON.stringify(pack, null, 2));
  svc = await startTestService({
    SVC_SOURCES_DIR: sources,
    CHAIN_RPC_ETH: anvil.rpcUrl,
    SVC_INGEST_RPC_URL: anvil.rpcUrl,
    SVC_INGEST_POLL_MS: '3600000',
  });
  owner = await svc.account({ depositUsd: 5 });
  stranger = await svc.account({ depositUsd: 5 });
  const chain = transferChain(anvil.rpcUrl);
  await chain.sendNative(EXPLOITER, MIDDLE, '20');
  // 2 ETH (6,600 USD at the snapshot price): under I2's 20,000 USD, over I4's 500 USD.
  txHash = await chain.sendNative(MIDDLE, party('recipient'), '2');
  await svc.services.fullCheck.ingester!.syncOnce();
  await svc.services.fullCheck.whenCaughtUp();
}, 90_000);
afterAll(async () => {
  await svc?.close();
  await anvil?.stop();
  if (sources) await rm(sources, { recursive: true, force: true });
});

const check = async (apiKey: string) => {
  const response = await call('POST', '/v2/check-transfer', apiKey, { chain: 'ETH', tx_hash: txHash });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().policy_result;
};

describe('KYT policies per subgroup', () => {
  let policyId: string;

  it('list the standard policy as active until the subgroup activates its own; it applies to transfer checks', async () => {
    const list = await call('GET', '/v2/policies', owner.apiKey);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().policies).toEqual([
      expect.objectContaining({ id: 'standard', name: 'standard', active: true, active_version: '2026-11-1', has_draft: false }),
    ]);
    const standard = (await call('GET', '/v2/policies/standard', owner.apiKey)).json();
    expect(standard.version.rules.find((r: { id: string }) => r.id === 'I2')).toMatchObject({
      rule_type: 'Origin of funds / Indirect',
      min_share_percent: 5,
      min_usd: 20_000,
      alert_level: 'High',
      action: 'hold',
    });
    const result = await check(owner.apiKey);
    expect(result).toMatchObject({ policy_id: 'standard', policy: 'standard', version: '2026-11-1', worst_level: 'Low' });
    expect(result.explanations.map((e: { rule_id: string }) => e.rule_id)).toEqual(['I4']);
  });

  it('create a draft from the standard policy, edit it with validation naming each field, and keep who and why', async () => {
    const created = await call('POST', '/v2/policies', owner.apiKey, { name: 'Tuned', reason: 'start from the standard rules' });
    expect(created.statusCode, created.body).toBe(201);
    policyId = created.json().id;
    expect(created.json()).toMatchObject({
      name: 'Tuned',
      active: false,
      has_draft: true,
      based_on: { policy_id: 'standard', version: '2026-11-1' },
    });
    const rules = created.json().draft.rules.map((rule: { id: string; action?: string }) => {
      const { action: _action, ...input } = rule;
      return input.id === 'I2' ? { ...input, min_usd: 5_000 } : input;
    });

    const noReason = await call('PATCH', `/v2/policies/${policyId}`, owner.apiKey, { rules });
    expect(noReason.statusCode).toBe(422);
    const badCategory = await call('PATCH', `/v2/policies/${policyId}`, owner.apiKey, {
      reason: 'x',
      rules: [{ ...rules[0], categories: { slugs: ['no_such_category'] } }],
    });
    expect(badCategory.statusCode).toBe(422);
    expect(badCategory.json().detail).toEqual([expect.objectContaining({ loc: ['body', 'rules', 0, 'categories', 'slugs', 0] })]);
    const duplicate = await call('PATCH', `/v2/policies/${policyId}`, owner.apiKey, { reason: 'x', rules: [rules[0], rules[0]] });
    expect(duplicate.json().detail[0].loc).toEqual(['body', 'rules', 1, 'id']);
    const share = await call('PATCH', `/v2/policies/${policyId}`, owner.apiKey, {
      reason: 'x',
      rules: [{ ...rules[0], min_share_percent: 150 }],
    });
    expect(share.statusCode).toBe(422);
    expect((await call('PATCH', '/v2/policies/standard', owner.apiKey, { reason: 'x', rules })).statusCode).toBe(422);
    expect((await call('POST', '/v2/policies', owner.apiKey, { name: 'standard', reason: 'x' })).statusCode).toBe(422);
    expect((await call('POST', `/v2/policies/${policyId}/activate`, owner.apiKey, { reason: 'x', version: '9' })).statusCode).toBe(422);

    const edited = await call('PATCH', `/v2/policies/${policyId}`, owner.apiKey, { reason: 'indirect exposure from 5,000 USD', rules });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().draft.rules.find((r: { id: string }) => r.id === 'I2').min_usd).toBe(5_000);
  });

  it('backtest the draft over the recorded check: it finds the High indirect exposure the standard policy raised as Low', async () => {
    await svc.services.whenCaughtUp();
    // An analyst closed the standard policy's Low alert as a real finding.
    const cases = (await call('GET', '/v2/alerts', owner.apiKey)).json().alerts;
    expect(cases).toHaveLength(1);
    const closed = await call('PATCH', `/v2/alerts/${cases[0].id}`, owner.apiKey, {
      status: 'closed',
      reason: 'flagged',
      note: 'exploit proceeds',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    await svc.services.whenCaughtUp();

    const response = await call('POST', `/v2/policies/${policyId}/backtest`, owner.apiKey, {});
    expect(response.statusCode, response.body).toBe(200);
    const backtest = response.json();
    expect(backtest).toMatchObject({ status: 'completed', version: 'draft', baseline: { policy_id: 'standard', version: '2026-11-1' } });
    expect(backtest.report).toMatchObject({
      checks: 1,
      candidate: { alerts: 1, by_level: { High: 1, Low: 0 }, by_rule: [{ rule_id: 'I2', alert_level: 'High', alerts: 1 }] },
      baseline: { alerts: 1, by_rule: [{ rule_id: 'I4', alert_level: 'Low', alerts: 1 }] },
      versus_baseline: { new: 0, lost: 0, changed_level: 1, checks_affected: 1 },
      analyst_outcomes: { flagged: 1, flagged_still_alerted: 1, dismissed: 0, dismissed_no_longer_raised: 0 },
      examples: [
        { changes: [{ category_slug: 'stolen_funds', rule_type: 'Origin of funds / Indirect', from_level: 'Low', to_level: 'High' }] },
      ],
    });
    // The active policy, backtested, reproduces exactly what was raised.
    const standard = (await call('POST', '/v2/policies/standard/backtest', owner.apiKey, {})).json();
    expect(standard.report.versus_raised).toEqual({ new: 0, lost: 0, changed_level: 0, checks_affected: 0 });
    expect(standard.report.candidate).toEqual(standard.report.raised);
    // The result URL answers the same report; a stranger gets 404; a reversed range is 422.
    const again = await call('GET', backtest.result_url, owner.apiKey);
    expect(again.json().report).toEqual(backtest.report);
    expect((await call('GET', backtest.result_url, stranger.apiKey)).statusCode).toBe(404);
    const reversed = await call('POST', `/v2/policies/${policyId}/backtest`, owner.apiKey, { from: '2026-11-02', to: '2026-11-01' });
    expect(reversed.statusCode).toBe(422);
    expect((await call('POST', `/v2/policies/${policyId}/backtest`, owner.apiKey, { version: '9' })).statusCode).toBe(422);
    expect((await call('POST', `/v2/policies/${policyId}/backtest`, stranger.apiKey, {})).statusCode).toBe(404);
  });

  it('hide the policies from anyone outside the subgroup (404)', async () => {
    expect((await call('GET', `/v2/policies/${policyId}`, stranger.apiKey)).statusCode).toBe(404);
    expect((await call('PATCH', `/v2/policies/${policyId}`, stranger.apiKey, { reason: 'x' })).statusCode).toBe(404);
    expect((await call('POST', `/v2/policies/${policyId}/activate`, stranger.apiKey, { reason: 'x' })).statusCode).toBe(404);
    expect((await call('GET', `/v2/policies/${policyId}/history`, stranger.apiKey)).statusCode).toBe(404);
    expect((await call('GET', '/v2/policies?subgroup_id=00000000-0000-4000-8000-000000000000', owner.apiKey)).statusCode).toBe(404);
    const loner = await svc.account({ organization: false });
    expect((await call('GET', '/v2/policies', loner.apiKey)).statusCode).toBe(409);
  });

  it('activate the draft as version 1: the next check applies it and names it; another subgroup still applies standard', async () => {
    const activated = await call('POST', `/v2/policies/${policyId}/activate`, owner.apiKey, { reason: 'approved by the MLRO' });
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json()).toMatchObject({ active: true, active_version: '1', latest_version: '1', has_draft: false });
    const result = await check(owner.apiKey);
    expect(result).toMatchObject({ policy_id: policyId, policy: 'Tuned', version: '1', worst_level: 'High' });
    expect(result.explanations.map((e: { rule_id: string }) => e.rule_id)).toEqual(['I2']);
    expect(await check(stranger.apiKey)).toMatchObject({ policy_id: 'standard', worst_level: 'Low' });

    const history = (await call('GET', `/v2/policies/${policyId}/history`, owner.apiKey)).json().history;
    expect(history.map((h: { action: string; reason: string; version: string | null }) => [h.action, h.reason, h.version])).toEqual([
      ['draft_created', 'start from the standard rules', null],
      ['draft_edited', 'indirect exposure from 5,000 USD', null],
      ['activated', 'approved by the MLRO', '1'],
    ]);
    expect(history[2].by.user_id).toBe(owner.userId);
  });

  it('roll back to the standard policy', async () => {
    const back = await call('POST', '/v2/policies/standard/activate', owner.apiKey, { reason: 'rollback' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ id: 'standard', active: true });
    expect(await check(owner.apiKey)).toMatchObject({ policy_id: 'standard', worst_level: 'Low' });
    const list = (await call('GET', '/v2/policies', owner.apiKey)).json().policies;
    expect(list.map((p: { id: string; active: boolean }) => [p.id, p.active])).toEqual([
      ['standard', true],
      [policyId, false],
    ]);
  });
});
