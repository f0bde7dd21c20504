import type { AlertLevel, WebhookEventType, WebhookPayload } from './webhook-event-types.js';

/**
 * The payload of a test delivery (POST /v1/webhooks/{id}/test, the dashboard's test action): the shape of
 * a real event with `synthetic: true` and all-zero sentinel ids; a transfer alert carries one alert in
 * the category `Synthetic Test` at the subscription's own `alert_min_level`. Receivers may skip them.
 */
export const SENTINEL_ID = '00000000-0000-0000-0000-000000000000';
const ZERO_TX_HASH = `0x${'0'.repeat(64)}`;
const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;
export const SYNTHETIC_CATEGORY = 'Synthetic Test';

export function syntheticPayload(eventType: WebhookEventType, alertLevel: AlertLevel): WebhookPayload {
  switch (eventType) {
    case 'tx.policy.alert.triggered':
      return {
        check_id: SENTINEL_ID,
        tx_hash: ZERO_TX_HASH,
        chain: 'ETH',
        subgroup_id: SENTINEL_ID,
        worst_level: alertLevel,
        alerts: [
          {
            category: SYNTHETIC_CATEGORY,
            riskLevel: alertLevel,
            ruleType: 'Direct exposure',
            actualShare: 0,
            thresholdShare: 0,
            thresholdValue: 0,
            entityName: null,
            entityAddress: null,
            direction: 'incoming',
            entityScore: 0,
          },
        ],
        synthetic: true,
      };
    case 'service.bfs.completed':
      return {
        job_id: SENTINEL_ID,
        address: ZERO_ADDRESS,
        network: 'ETH',
        report_id: SENTINEL_ID,
        categories: [{ slug: 'synthetic_test', severity: 0, contribution: 0 }],
        complete: true,
        synthetic: true,
      };
    case 'service.bfs.failed':
      return { job_id: SENTINEL_ID, address: ZERO_ADDRESS, network: 'ETH', error: 'synthetic test event', synthetic: true };
    case 'service.check.high_risk':
      return {
        check_id: SENTINEL_ID,
        address: ZERO_ADDRESS,
        network: 'ETH',
        risk_level: 'high',
        risk_score: 0,
        tier_hit: 0,
        categories: ['synthetic_test'],
        synthetic: true,
      };
    case 'service.address.risk_changed':
      return {
        monitor_id: SENTINEL_ID,
        address: ZERO_ADDRESS,
        network: 'ETH',
        reference: null,
        previous: { risk_level: 'none', risk_score: null, risk_categories: [], sdn_match: null, label: null },
        current: { risk_level: 'high', risk_score: 0, risk_categories: ['synthetic_test'], sdn_match: null, label: null },
        reasons: [{ source: 'synthetic_test', change: 'dataset_imported', version: null, changed_at: '1970-01-01T00:00:00.000Z' }],
        synthetic: true,
      };
  }
}
