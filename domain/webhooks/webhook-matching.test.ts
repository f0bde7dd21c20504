import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayMs } from './retry-schedule.js';
import { SENTINEL_ID, SYNTHETIC_CATEGORY, syntheticPayload } from './synthetic-event.js';
import { WEBHOOK_EVENT_TYPES, parseWebhookPayload, type TransferAlert } from './webhook-event-types.js';
import { payloadFor } from './webhook-matching.js';
import { webhookEventRaised } from './webhook-raised.js';

const alert = (riskLevel: TransferAlert['riskLevel'], category: string): TransferAlert => ({
  category,
  riskLevel,
  ruleType: 'Direct exposure',
  actualShare: 12.5,
  thresholdShare: 5,
  thresholdValue: 1000,
  entityName: null,
  entityAddress: '0x00000000000000000000000000000000000000aa',
  direction: 'incoming',
  entityScore: 0,
});
const transfer = {
  check_id: 'c-1',
  tx_hash: `0x${'ab'.repeat(32)}`,
  chain: 'ETH' as const,
  subgroup_id: 'g-1',
  worst_level: 'Severe' as const,
  alerts: [alert('Low', 'Gambling'), alert('Medium', 'Mixer'), alert('Severe', 'Sanctions')],
};

describe('what each subscription receives', () => {
  it('transfer alerts keep only the alerts at or above alert_min_level', () => {
    const high = payloadFor({ eventTypes: ['tx.policy.alert.triggered'], alertMinLevel: 'High' }, 'tx.policy.alert.triggered', transfer);
    expect(high).toMatchObject({ worst_level: 'Severe', alerts: [{ category: 'Sanctions' }] });
    const low = payloadFor({ eventTypes: ['tx.policy.alert.triggered'], alertMinLevel: 'Low' }, 'tx.policy.alert.triggered', transfer);
    expect((low!.alerts as unknown[]).length).toBe(3);
    const onlyLow = { ...transfer, worst_level: 'Low' as const, alerts: [alert('Low', 'Gambling')] };
    expect(
      payloadFor({ eventTypes: ['tx.policy.alert.triggered'], alertMinLevel: 'Medium' }, 'tx.policy.alert.triggered', onlyLow),
    ).toBeNull();
  });

  it('other types pass unchanged, to subscribers of the type only', () => {
    const failed = { job_id: 'j', address: 'a', network: 'ETH', error: 'budget' };
    expect(payloadFor({ eventTypes: ['service.bfs.failed'], alertMinLevel: 'Severe' }, 'service.bfs.failed', failed)).toBe(failed);
    expect(payloadFor({ eventTypes: ['service.bfs.completed'], alertMinLevel: 'Low' }, 'service.bfs.failed', failed)).toBeNull();
  });

  it('synthetic payloads have the shape of real ones, all-zero ids and one Synthetic Test alert', () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      const payload = syntheticPayload(type, 'High');
      expect(parseWebhookPayload(type, payload)).toEqual(payload);
      expect(payload.synthetic).toBe(true);
    }
    const tx = syntheticPayload('tx.policy.alert.triggered', 'High') as typeof transfer;
    expect(tx.check_id).toBe(SENTINEL_ID);
    expect(tx.subgroup_id).toBe(SENTINEL_ID);
    expect(tx.alerts).toEqual([expect.objectContaining({ category: SYNTHETIC_CATEGORY, riskLevel: 'High' })]);
  });
});

describe('the emitters contract', () => {
  it('builds a WebhookEventRaised and refuses payloads off the spec', () => {
    const event = webhookEventRaised({ eventType: 'tx.policy.alert.triggered', audience: { subgroup_id: 'g-1' }, payload: transfer });
    expect(event).toEqual({
      type: 'WebhookEventRaised',
      data: { event_type: 'tx.policy.alert.triggered', audience: { subgroup_id: 'g-1' }, payload: transfer },
    });
    expect(() =>
      webhookEventRaised({ eventType: 'service.check.high_risk', audience: { user_id: 'u' }, payload: { ...transfer } as never }),
    ).toThrow();
    expect(() =>
      webhookEventRaised({
        eventType: 'service.bfs.failed',
        audience: {} as never,
        payload: { job_id: 'j', address: 'a', network: 'ETH', error: 'e' },
      }),
    ).toThrow();
  });
});

describe('retry schedule', () => {
  it('5 s, 5 min, 30 min, 2 h after each failure, plus up to 10 % jitter, scaled for tests', () => {
    expect(MAX_ATTEMPTS).toBe(5);
    for (const [i, base] of RETRY_DELAYS_MS.entries()) {
      const delay = retryDelayMs(i + 2, 'd-1');
      expect(delay).toBeGreaterThanOrEqual(base);
      expect(delay).toBeLessThan(base * 1.1);
      expect(retryDelayMs(i + 2, 'd-1')).toBe(delay);
    }
    expect(retryDelayMs(2, 'd-1', 0.001)).toBeLessThan(6);
    expect(new Set(Array.from({ length: 20 }, (_, i) => retryDelayMs(3, `d-${i}`))).size).toBeGreaterThan(15);
    expect(() => retryDelayMs(6, 'd-1')).toThrow();
  });
});
