import type { SanctionsCoverageBody } from '../../../domain/webhooks/sanctions-coverage.words.js';
import type { Product } from '../../../domain/billing/products.js';
import { sanctionsClause } from '../../presenters/coverage-sentence.js';

/**
 * The first line of every served tool result: what the verdict says, in words an agent cannot misread.
 * When nothing is known (`data_available` false) it starts with "unknown: no data", because `risk_level:
 * "none"` then means "nothing known", never "clean"; and it names the sanctions lists checked and those
 * not checked.
 */

type Body = Readonly<Record<string, unknown>>;
const field = <T>(body: Body | undefined, key: string): T | undefined => body?.[key] as T | undefined;

const UNKNOWN = 'unknown: no data';

function screenLine(body: Body): string {
  const coverage = field<Body>(body, 'coverage');
  const verdict = field<Body>(body, 'verdict');
  const lists = sanctionsClause(field<SanctionsCoverageBody>(coverage, 'sanctions'));
  if (field<boolean>(coverage, 'data_available') === false)
    return `${UNKNOWN}: nothing is known of this address (risk_level "none" here is not "clean"); ${lists}`;
  const sdn = field<{ list: string; source: string }>(verdict, 'sdn_match');
  const categories = field<string[]>(verdict, 'risk_categories') ?? [];
  return [
    `risk_level ${String(field(verdict, 'risk_level'))} (score ${String(field(verdict, 'risk_score') ?? '—')}`,
    categories.length > 0 ? `, categories ${categories.join(', ')}` : '',
    sdn ? `; on the ${sdn.list} sanctions list of ${sdn.source}` : '',
    `); ${lists}`,
  ].join('');
}

function checkLine(body: Body): string {
  const coverage = field<Body>(body, 'coverage');
  const verdict = field<Body>(body, 'verdict');
  const lists = sanctionsClause(field<SanctionsCoverageBody>(coverage, 'sanctions'));
  const decision = String(field(body, 'decision'));
  const head = `decision ${decision}, risk_level ${String(field(verdict, 'risk_level'))}: ${String(field(body, 'decision_reason'))}`;
  return decision === 'unable' ||
    (field<boolean>(coverage, 'data_available') === false && field<boolean>(coverage, 'transfer_history') === false)
    ? `${UNKNOWN}: ${head}; ${lists}`
    : `${head}; ${lists}`;
}

function transferLine(body: Body): string {
  const composite = field<Body>(body, 'composite_result');
  const policy = field<Body>(body, 'policy_result');
  const lists = sanctionsClause(field<SanctionsCoverageBody>(field<Body>(body, 'coverage'), 'sanctions'));
  const senders = field<{ data_available: boolean; indirect_categories: unknown[] }[]>(composite, 'senders') ?? [];
  const unknown = senders.filter((s) => !s.data_available && s.indirect_categories.length === 0).length;
  const worst = field<string | null>(policy, 'worst_level') ?? null;
  const head = `worst alert ${worst ?? 'none'}, recommended action ${String(field(policy, 'recommended_action'))}; composite ${String(field(composite, 'risk_level'))} (${String(field(composite, 'risk_score'))} of 10)`;
  const known = `${senders.length - unknown} of ${senders.length} sender(s) known`;
  return senders.length > 0 && unknown === senders.length
    ? `${UNKNOWN} on any sender: no alert here is not "clean"; ${head}; ${lists}`
    : `${head}; ${known}; ${lists}`;
}

/** The summary line of a served (200) body of `product`. */
export function summaryOf(product: Product, body: Body): string {
  switch (product) {
    case 'screen':
      return screenLine(body);
    case 'check_address':
      return checkLine(body);
    case 'check_transfer':
      return transferLine(body);
    default:
      return `${product} served`;
  }
}
