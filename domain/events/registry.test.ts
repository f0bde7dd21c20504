import { describe, expect, it } from 'vitest';
import { storedEvent } from '../../test/support/stored-event.js';
import { eventRegistry } from './registry.js';

const stored = (type: string, data: unknown) => storedEvent(type, 'idem-u1-abc', data);

describe('the service’s event registry', () => {
  it('reads a key’s stored HTTP response, as written before outcomes were stored, as an outcome event', () => {
    const old = stored('IdempotentResponseStored', { callId: 'call-1', status: 200, body: { ok: true }, at: '2026-11-20T10:00:00.000Z' });
    const expected = {
      type: 'IdempotentOutcomeStored',
      data: { callId: 'call-1', result: { kind: 'recordedAnswer', code: 200, body: { ok: true } }, at: '2026-11-20T10:00:00.000Z' },
    };
    expect(eventRegistry.parse(old)).toMatchObject(expected);
    expect(eventRegistry.upcast(old)).toMatchObject(expected);
    expect(eventRegistry.readAs('IdempotentResponseStored')).toBe('IdempotentOutcomeStored');
  });

  it('writes every type at version 1 so far, but the verdicts and charges made domain facts (version 2) and Charged (3)', () => {
    const bumped = new Map([
      ['CheckCompleted', 3],
      ['TierCompleted', 2],
      ['ProviderAnswered', 2],
      ['ExploreCompleted', 2],
      ['TransferCheckCompleted', 2],
      ['Charged', 3],
      ['CheckResultDelivered', 2],
      ['ExploreResultDelivered', 2],
      ['IdempotentOutcomeStored', 2],
      ['MonitorCreated', 2],
      ['MonitorVerdictChanged', 3],
      ['TransferCheckReevaluated', 2],
      ['AlertCaseOpened', 2],
    ]);
    for (const type of eventRegistry.types) expect(eventRegistry.versionOf(type), type).toBe(bumped.get(type) ?? 1);
  });

  it('knows the stream families each type is appended to (a retired type: its successor’s)', () => {
    expect(eventRegistry.familiesOf('Charged')).toEqual(['ledger']);
    expect([...eventRegistry.familiesOf('WebhookEventRaised')].sort()).toEqual(['check', 'explore', 'monitor', 'transfer']);
    expect(eventRegistry.familiesOf('IdempotentResponseStored')).toEqual(['idem']);
    expect(eventRegistry.familiesOf('NoSuchEvent')).toEqual([]);
  });
});
