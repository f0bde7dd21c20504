import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAlertCasesOf } from '../../commands/alert-cases.commands.js';
import { joinSubgroup } from '../../commands/memberships.commands.js';
import { accountDecider } from '../../domain/accounts/account.decider.js';
import { accountStream } from '../../domain/accounts/account.events.js';
import { madeUpEvmAddress } from '../helpers/made-up-addresses.js';
import { policyAlert, recordCompletedTransferCheck } from '../support/alert-fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * /v2/alerts end to end: a completed transfer check's alerts become cases (through the processor, once
 * even when the check's events are handled again), listed with filters and pages, triaged open →
 * in_review → closed with the audit trail, commented, and invisible (404) outside the subgroup.
 */
let svc: TestService;
let owner: { userId: string; apiKey: string; keyId: string };
let colleague: { userId: string; apiKey: string };
let stranger: { apiKey: string };
let subgroupId: string;
const CHECK = '0193b000-0000-7000-8000-000000000001';

const call = (method: 'GET' | 'PATCH' | 'POST', url: string, apiKey: string, payload?: unknown) =>
  svc.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${apiKey}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

describe('alert cases over /v2/alerts', () => {
  beforeAll(async () => {
    svc = await startTestService();
    owner = await svc.account({ depositUsd: 5 });
    colleague = await svc.account({ depositUsd: 5, organization: false });
    stranger = await svc.account({ depositUsd: 5 });
    const { state } = await svc.services.commands.executor.load(accountStream(owner.userId), accountDecider);
    const membership = state.memberships[0]!;
    subgroupId = membership.subgroupId;
    await joinSubgroup(svc.services.commands, colleague.userId, { ...membership, role: 'member' });
    await recordCompletedTransferCheck(svc.services, {
      checkId: CHECK,
      requester: { channel: 'v2', userId: owner.userId, keyId: owner.keyId, subgroupId },
      alerts: [
        policyAlert('Severe', 'Sanctioned entity / address', madeUpEvmAddress('alerts:a')),
        policyAlert('Low', 'Gambling', madeUpEvmAddress('alerts:b')),
      ],
    });
    // An x402 check belongs to no subgroup: no case.
    await recordCompletedTransferCheck(svc.services, {
      checkId: '0193b000-0000-7000-8000-000000000002',
      requester: { channel: 'x402', payer: null },
      alerts: [policyAlert('Severe', 'Sanctioned entity / address', madeUpEvmAddress('alerts:c'))],
    });
    await svc.services.whenCaughtUp();
  }, 60_000);
  afterAll(async () => svc?.close());

  it('opens one case per alert of the check, listed newest first with pages and filters', async () => {
    const all = await call('GET', '/v2/alerts', owner.apiKey);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().pagination).toEqual({ page: 1, page_size: 20, total: 2, total_pages: 1 });
    expect(
      all
        .json()
        .alerts.map((a: { risk_level: string; status: string; check_id: string }) => [a.risk_level, a.status, a.check_id])
        .sort(),
    ).toEqual([
      ['Low', 'open', CHECK],
      ['Severe', 'open', CHECK],
    ]);
    const severe = (await call('GET', '/v2/alerts?risk_level=Severe', owner.apiKey)).json();
    expect(severe.alerts).toHaveLength(1);
    expect(severe.alerts[0].alert).toMatchObject({
      category: 'Sanctioned entity / address',
      riskLevel: 'Severe',
      ruleType: 'Direct exposure',
    });
    const paged = (await call('GET', '/v2/alerts?page=2&page_size=1', owner.apiKey)).json();
    expect(paged.alerts).toHaveLength(1);
    expect(paged.pagination).toEqual({ page: 2, page_size: 1, total: 2, total_pages: 2 });
    expect((await call('GET', '/v2/alerts?status=closed', owner.apiKey)).json().pagination.total).toBe(0);
    // Enum filters take any case, as network names do; a word outside the scale is still a 422.
    for (const word of ['severe', 'SEVERE']) {
      const anyCase = await call('GET', `/v2/alerts?risk_level=${word}&status=OPEN&chain=eth`, owner.apiKey);
      expect(anyCase.statusCode, anyCase.body).toBe(200);
      expect(anyCase.json().alerts.map((a: { risk_level: string }) => a.risk_level)).toEqual(['Severe']);
    }
    expect((await call('GET', '/v2/alerts?risk_level=Extreme', owner.apiKey)).statusCode).toBe(422);
    // The colleague in the same subgroup sees them too.
    expect((await call('GET', '/v2/alerts', colleague.apiKey)).json().pagination.total).toBe(2);
  });

  it('handling the completion again opens nothing new', async () => {
    const ids = await openAlertCasesOf(svc.services.commands, CHECK);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const events = [];
      for await (const event of svc.services.store.read(`alertcase-${id}`)) events.push(event.type);
      expect(events).toEqual(['AlertCaseOpened']);
    }
  });

  it('triages a case open → in_review (assigned to a colleague) → closed dismissed with a note; the audit trail shows who, when and what', async () => {
    const severe = (await call('GET', '/v2/alerts?risk_level=Severe', owner.apiKey)).json().alerts[0];
    const url = `/v2/alerts/${severe.id}`;

    const review = await call('PATCH', url, owner.apiKey, { status: 'in_review', assignee: colleague.userId });
    expect(review.statusCode, review.body).toBe(200);
    expect(review.json()).toMatchObject({ status: 'in_review', assignee: { user_id: colleague.userId } });

    const noNote = await call('PATCH', url, colleague.apiKey, { status: 'closed', reason: 'dismissed' });
    expect(noNote.statusCode).toBe(422);
    expect(noNote.json().detail).toEqual([expect.objectContaining({ loc: ['body', 'note'], msg: 'closing a case needs a note' })]);
    const badReason = await call('PATCH', url, colleague.apiKey, { status: 'closed', reason: 'bored', note: 'x' });
    expect(badReason.statusCode).toBe(422);
    const outsider = await call('PATCH', url, owner.apiKey, { assignee: (await svc.account({ organization: false })).userId });
    expect(outsider.statusCode).toBe(422);
    expect(outsider.json().detail[0].loc).toEqual(['body', 'assignee']);

    const comment = await call('POST', `${url}/comments`, colleague.apiKey, { text: 'Counterparty is a known exchange deposit address' });
    expect(comment.statusCode, comment.body).toBe(201);
    expect(comment.json()).toMatchObject({ text: 'Counterparty is a known exchange deposit address', by: { user_id: colleague.userId } });

    const closed = await call('PATCH', url, colleague.apiKey, {
      status: 'closed',
      reason: 'dismissed',
      note: 'False positive: exchange hot wallet',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      status: 'closed',
      reason: 'dismissed',
      note: 'False positive: exchange hot wallet',
      comment_count: 1,
    });

    const detail = (await call('GET', url, owner.apiKey)).json();
    expect(
      detail.history.map((h: { action: string; by: { user_id: string } | null; from?: string; to?: string }) => [
        h.action,
        h.by?.user_id ?? null,
        h.from ?? null,
        h.to ?? null,
      ]),
    ).toEqual([
      ['opened', null, null, 'open'],
      ['assigned', owner.userId, null, expect.stringContaining('@example.test')],
      ['status_changed', owner.userId, 'open', 'in_review'],
      ['commented', colleague.userId, null, null],
      ['status_changed', colleague.userId, 'in_review', 'closed'],
    ]);
    expect(detail.history.at(-1)).toMatchObject({
      reason: 'dismissed',
      note: 'False positive: exchange hot wallet',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect((await call('GET', '/v2/alerts?status=closed', owner.apiKey)).json().pagination.total).toBe(1);
    expect((await call('GET', `/v2/alerts?assignee=${colleague.userId}`, owner.apiKey)).json().pagination.total).toBe(1);
    expect((await call('GET', '/v2/alerts?assignee=none', owner.apiKey)).json().pagination.total).toBe(1);
  });

  it('a user outside the subgroup gets 404 on every case route and an empty list', async () => {
    const id = (await call('GET', '/v2/alerts', owner.apiKey)).json().alerts[0].id;
    expect((await call('GET', '/v2/alerts', stranger.apiKey)).json().pagination.total).toBe(0);
    for (const response of [
      await call('GET', `/v2/alerts/${id}`, stranger.apiKey),
      await call('PATCH', `/v2/alerts/${id}`, stranger.apiKey, { status: 'in_review' }),
      await call('POST', `/v2/alerts/${id}/comments`, stranger.apiKey, { text: 'hello' }),
      await call('GET', '/v2/alerts/not-a-case', owner.apiKey),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    expect((await svc.app.inject({ method: 'GET', url: '/v2/alerts' })).statusCode).toBe(401);
  });

  it('the routes are in the OpenAPI document', async () => {
    const paths = (await svc.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json().paths;
    expect(Object.keys(paths['/v2/alerts'])).toEqual(['get']);
    expect(Object.keys(paths['/v2/alerts/{id}']).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(paths['/v2/alerts/{id}/comments'])).toEqual(['post']);
  });
});
