import { present } from '../shared/present.js';
import {
  levelRank,
  TRANSFER_ALERT_EVENT,
  ALERT_LEVELS,
  type AlertLevel,
  type TransferAlert,
  type WebhookEventType,
} from './webhook-event-types.js';

/** What a subscription listens to, as the fan-out sees it. */
export interface SubscriptionInterest {
  readonly eventTypes: readonly WebhookEventType[];
  readonly alertMinLevel: AlertLevel;
}

/**
 * The payload this subscription receives for a raised event, or null when it receives nothing: it does
 * not listen to the type, or (transfer alerts) none of the alerts reaches its `alert_min_level`. A
 * transfer alert keeps only the alerts at or above that level, and `worst_level` is the highest of them.
 */
export function payloadFor(
  interest: SubscriptionInterest,
  eventType: WebhookEventType,
  payload: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> | null {
  if (!interest.eventTypes.includes(eventType)) return null;
  if (eventType !== TRANSFER_ALERT_EVENT) return payload;
  const min = levelRank(interest.alertMinLevel);
  const alerts = (payload.alerts as readonly TransferAlert[]).filter((alert) => levelRank(alert.riskLevel) >= min);
  if (alerts.length === 0) return null;
  const worst = present(
    ALERT_LEVELS[Math.max(...alerts.map((alert) => levelRank(alert.riskLevel)))],
    'ALERT_LEVELS[Math.max(...alerts.map((alert) => levelRank(alert.riskLevel)))]',
  );
  return { ...payload, worst_level: worst, alerts };
}
