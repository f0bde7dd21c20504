import type { FastifyInstance } from 'fastify';
import {
  ACTIONS,
  ALERT_LEVELS,
  CATEGORY_LEVELS,
  COMPOSITE_LEVELS,
  DECISIONS,
  HIGH_RISK_LEVELS,
  INSPECT_DECISIONS,
  RISK_LEVELS,
} from '../../domain/shared/verdict-vocabulary.js';
import { ResponseContractError } from './response-contract.js';

/**
 * Every level, decision and action a body or page shows is a word of the verdict vocabulary
 * (domain/shared/verdict-vocabulary.ts), of the scale its field belongs to. With the response contract
 * on (tests), each JSON body and each HTML page an app sends is held to it: a word outside the table
 * fails the request loudly.
 */

type Scale = readonly string[];
const ALL_WORDS: ReadonlySet<string> = new Set([
  ...RISK_LEVELS,
  ...CATEGORY_LEVELS,
  ...ALERT_LEVELS,
  ...COMPOSITE_LEVELS,
  ...ACTIONS,
  ...DECISIONS,
  ...HIGH_RISK_LEVELS,
  ...INSPECT_DECISIONS,
]);

/** The scale of a field, by its name and the object it is in; null: not a vocabulary field. */
function scaleOf(key: string, object: Record<string, unknown>, path: readonly string[]): Scale | null {
  switch (key) {
    case 'risk_level':
      if (path.includes('composite_result')) return COMPOSITE_LEVELS;
      if ('alert_index' in object || 'alert' in object) return ALERT_LEVELS; // an alert case: its alert's level
      if ('check_id' in object && 'tier_hit' in object && !('verdict' in object)) return HIGH_RISK_LEVELS; // the high-risk webhook
      return RISK_LEVELS;
    // addressLevel, ownershipLevel, exposureLevel: the full check's domain verdict, which a replay's differences show
    case 'ownership_risk_level':
    case 'exposure_risk_level':
    case 'worst_risk_level':
    case 'addressLevel':
    case 'ownershipLevel':
    case 'exposureLevel':
      return RISK_LEVELS;
    case 'level':
      return CATEGORY_LEVELS;
    case 'riskLevel':
    case 'worst_level':
    case 'alert_min_level':
    case 'alert_level':
      return ALERT_LEVELS;
    case 'recommended_action':
      return ACTIONS;
    case 'decision':
      return 'can_deal' in object ? INSPECT_DECISIONS : DECISIONS;
    default:
      return null;
  }
}

/** Where a JSON value uses a word outside its field's scale (empty: nowhere). */
export function vocabularyViolations(value: unknown, path: readonly string[] = []): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => vocabularyViolations(item, [...path, String(i)]));
  if (value === null || typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  return Object.entries(object).flatMap(([key, child]) => {
    const scale = scaleOf(key, object, path);
    const here = [...path, key];
    if (scale && typeof child === 'string' && !scale.includes(child))
      return [`$.${here.join('.')}: "${child}" is not one of ${scale.join(', ')}`];
    if (scale && typeof child === 'string') return [];
    return vocabularyViolations(child, here);
  });
}

/** Where a page shows a level badge (`data-level`) whose word is not in the table. */
export function pageVocabularyViolations(html: string): string[] {
  return [...html.matchAll(/data-level="([^"]*)"/g)]
    .map((match) => match[1] ?? '')
    .filter((word) => !ALL_WORDS.has(word))
    .map((word) => `a level badge says "${word}", which is not in the verdict vocabulary`);
}

/** With the response contract on: every JSON body and HTML page sent is held to the vocabulary. */
export function checkVocabulary(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || reply.statusCode >= 500) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    const violations = type.includes('text/html')
      ? pageVocabularyViolations(payload)
      : type.includes('json')
        ? vocabularyViolations(parseJson(payload))
        : [];
    if (violations.length > 0)
      throw new ResponseContractError(`${request.method} ${request.url}: outside the verdict vocabulary: ${violations.join('; ')}`);
    return payload;
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
