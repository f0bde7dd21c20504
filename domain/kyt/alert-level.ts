import { ALERT_LEVELS, levelRank, type AlertLevel } from '../webhooks/webhook-event-types.js';
import { parseWord } from '../shared/verdict-vocabulary.js';

/** The spec's four alert levels (Low, Medium, High, Severe) are defined once, with the webhook events. */
export { ALERT_LEVELS, DEFAULT_ALERT_MIN_LEVEL, type AlertLevel } from '../webhooks/webhook-event-types.js';

export const atOrAbove = (level: AlertLevel, minimum: AlertLevel): boolean => levelRank(level) >= levelRank(minimum);

/** Case-insensitive; null when `input` names no level. */
export const parseAlertLevel = (input: string): AlertLevel | null => parseWord(ALERT_LEVELS, input);

export function worstLevel(levels: readonly AlertLevel[]): AlertLevel | null {
  return levels.reduce<AlertLevel | null>((worst, level) => (worst === null || levelRank(level) > levelRank(worst) ? level : worst), null);
}

/** 0 for Low … 3 for Severe. */
export const alertRank = levelRank;
